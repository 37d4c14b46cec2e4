// Runs the built `pi-context` launcher with the offline faux provider loaded first (a test-only entry point: the
// launcher itself refuses `-e`, so the provider comes in through `launch`'s extraFactories).
import { createJiti } from "jiti";

const jiti = createJiti(import.meta.url);
const faux = await jiti.import(new URL("./faux-cli-ext.ts", import.meta.url).href, { default: true });
const { launch } = await import(new URL("../../dist/src/pi/launch.js", import.meta.url).href);
process.exitCode = await launch(process.argv.slice(2), { extraFactories: [{ name: "faux-provider", factory: faux }] });

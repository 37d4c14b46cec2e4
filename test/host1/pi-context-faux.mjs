// The Pi 1.x lane's `pi-context` with the offline faux provider loaded first (see test/helpers/pi-context-faux.mjs).
// The faux extension imports `@mariozechner/pi-ai` by name; inside the host Pi 1.x's loader aliases that to its own
// pi-ai compat entry, so this entry does the same for the host named by PI_CONTEXT_KIT_HOST.
import { dirname, join } from "node:path";
import { createJiti } from "jiti";

const host = process.env.PI_CONTEXT_KIT_HOST;
if (!host) throw new Error("pi-context-faux (1.x lane): set PI_CONTEXT_KIT_HOST to the host package folder");
const compat = join(dirname(host), "pi-ai", "dist", "compat.js");
const jiti = createJiti(import.meta.url, {
  alias: { "@mariozechner/pi-ai": compat, "@earendil-works/pi-ai": compat },
});
const faux = await jiti.import(new URL("../helpers/faux-cli-ext.ts", import.meta.url).href, { default: true });
const { launch } = await import(new URL("../../dist/src/pi/launch.js", import.meta.url).href);
process.exitCode = await launch(process.argv.slice(2), { extraFactories: [{ name: "faux-provider", factory: faux }] });

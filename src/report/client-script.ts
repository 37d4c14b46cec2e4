import { CLIENT_DATA_JS } from "./client-data.js";
import { CLIENT_UI_BASE_JS } from "./client-ui-base.js";
import { CLIENT_UI_MAIN_JS } from "./client-ui-main.js";
import { CLIENT_UI_PANELS_JS } from "./client-ui-panels.js";

/** The session page's whole script: reads the embedded model and renders it. No imports, no network. */
export const CLIENT_JS = `"use strict";\n(function () {\n${CLIENT_DATA_JS}\n${CLIENT_UI_BASE_JS}\n${CLIENT_UI_PANELS_JS}\n${CLIENT_UI_MAIN_JS}\n})();\n`;

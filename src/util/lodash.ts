/**
 * lodash, loaded on first use: it is one 540 kB CommonJS file, and only ListOperations'
 * de-duplication and StringTransform's splitting need it.
 */
import type Lodash from "lodash";
import { lazyPackage } from "./optional-package.js";

export const lodash = lazyPackage<typeof Lodash>("lodash", "list and text utilities");

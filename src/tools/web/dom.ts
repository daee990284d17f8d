/**
 * htmlparser2, loaded when a web tool first reads a page or an XML answer (PubMed, arXiv,
 * DuckDuckGo's results page): the web tools share this one loader.
 */
import type * as Htmlparser2 from "htmlparser2";
import { lazyPackage } from "../../util/optional-package.js";

export const htmlparser2 = lazyPackage<typeof Htmlparser2>("htmlparser2", "the web tools' HTML and XML reading");

export const domUtils = (): typeof Htmlparser2.DomUtils => htmlparser2().DomUtils;

/** An element of a parsed document. */
export type DomElement = ReturnType<typeof Htmlparser2.DomUtils.findAll>[number];

/** A parsed document. */
export type DomDocument = ReturnType<typeof Htmlparser2.parseDocument>;

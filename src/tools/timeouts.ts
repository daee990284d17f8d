/**
 * RAGFlow's execution timeout of each tool (its `@timeout` default), in seconds: read by the tool's
 * definition (its node timeout) and by its implementation (its HTTP timeout), which loads later.
 */
export const AKSHARE_TIMEOUT_S = 12;
export const ARXIV_TIMEOUT_S = 12;
export const BGPT_TIMEOUT_S = 30;
export const CRAWLER_TIMEOUT_S = 600;
export const DEEPL_TIMEOUT_S = 12;
export const DUCKDUCKGO_TIMEOUT_S = 12;
export const EMAIL_TIMEOUT_S = 60;
export const GITHUB_TIMEOUT_S = 12;
export const GOOGLE_TIMEOUT_S = 12;
export const KEENABLE_TIMEOUT_S = 12;
export const PUBMED_TIMEOUT_S = 12;
export const QUERIT_CONTENTS_TIMEOUT_S = 70;
export const QUERIT_SEARCH_TIMEOUT_S = 12;
export const QWEATHER_TIMEOUT_S = 12;
export const SCHOLAR_TIMEOUT_S = 12;
export const SEARXNG_TIMEOUT_S = 12;
export const TAVILY_EXTRACT_TIMEOUT_S = 600;
export const TAVILY_SEARCH_TIMEOUT_S = 12;
export const WENCAI_TIMEOUT_S = 12;
export const WIKIPEDIA_TIMEOUT_S = 60;
export const YAHOO_FINANCE_TIMEOUT_S = 60;

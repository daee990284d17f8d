/** Types of offline-dns.mjs (installed on import). */
export declare const refusedLookups: string[];

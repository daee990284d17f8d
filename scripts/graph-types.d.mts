// Types of scripts/graph-types.mjs, for the test that checks src/graph/params.generated.ts is current.
export declare const GENERATED_PATH: string;
export declare function componentNames(): string[];
export declare function graphParamsSource(): Promise<string>;

export interface DocTool {
  name: string;
  description: string;
  toolset: string;
}
export declare const TABLE_START: string;
export declare const TABLE_END: string;
export declare function loadRegistryTools(): Promise<DocTool[]>;
export declare function manifestTools(
  tools: readonly DocTool[],
): Array<{ name: string; description: string }>;
export declare function toolsTable(tools: readonly DocTool[]): string;
export declare function replaceBetween(text: string, start: string, end: string, body: string): string;
export declare function tableIn(text: string): string | undefined;
export declare const COUNT_START: string;
export declare const COUNT_END: string;
export declare function textBetween(text: string, start: string, end: string): string | undefined;
export interface DefaultToolCounts {
  tools: string[];
  toolsets: string[];
  leftOut: string[];
  withLegacy: string[];
}
export declare function defaultToolCounts(): Promise<DefaultToolCounts>;
export declare function toolCountText(counts: DefaultToolCounts): string;
export declare function snapshotText(entry: unknown): string;

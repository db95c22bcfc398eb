/** Moved: what this file held is in nodeRun.ts, nodeTypes.ts, n8nCredentials.ts, binaryData.ts, editorMethods.ts. */
export * from './nodeRun';
export * from './nodeTypes';
export * from './n8nCredentials';
export * from './binaryData';
export * from './editorMethods';

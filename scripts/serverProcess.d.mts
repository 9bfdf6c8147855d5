export declare const serverNodeArgs: string[];
export declare const serverEnv: Record<string, string>;

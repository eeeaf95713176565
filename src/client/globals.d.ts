/** The build id, set by Vite at build time; compared with /version.json by the version banner. */
declare const __APP_BUILD__: string;

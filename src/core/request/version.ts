/** The extension's version, sent as x-opencode-client; a test keeps it equal to package.json's. */
export const EXTENSION_VERSION = '0.1.0';

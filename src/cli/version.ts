/** This build's package name and version (package.json's `name` and `version`; a test keeps them equal). */
export const plumbPackage = 'plumb-agent';
export const plumbVersion = '0.1.0';

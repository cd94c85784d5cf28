/** This build's version (the package's `version`; a test keeps the two equal). */
export const plumbVersion = '0.1.0';

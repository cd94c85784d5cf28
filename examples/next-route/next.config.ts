interface WebpackConfig {
  resolve: { extensionAlias?: Record<string, string[]> };
}

export default {
  // Plumb loads as Node loads it (native SQLite, modules it imports by path), not bundled.
  serverExternalPackages: ['plumb-agent'],
  // The imports carry `.js` extensions, as Node's resolver wants them; webpack maps them to the
  // `.ts` files (Turbopack cannot yet, vercel/next.js#82945, hence `--webpack` in the scripts).
  webpack(config: WebpackConfig): WebpackConfig {
    config.resolve.extensionAlias = { ...config.resolve.extensionAlias, '.js': ['.ts', '.js'] };
    return config;
  },
};

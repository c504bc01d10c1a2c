// The sandbox runtime's source text, served by runtime-plugin.ts.
declare module 'virtual:parley-sandbox-runtime' {
  const source: string;
  export default source;
}

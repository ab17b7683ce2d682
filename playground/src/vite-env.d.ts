/// <reference types="vite/client" />

declare module 'virtual:t2m-examples' {
  const examples: ReadonlyArray<{ readonly name: string; readonly text: string }>;
  export default examples;
}

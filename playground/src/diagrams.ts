/** The railroad diagrams page emitted by `diagrams-plugin.ts`, as an absolute URL (hover links open it). */
const diagramsUrl: string = new URL('diagrams/index.html', document.baseURI).href;
export default diagramsUrl;

/** pdf.js's parser module, which the package ships without types; importing it sets `globalThis.pdfjsWorker`. */
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}

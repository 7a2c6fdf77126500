/**
 * The files the server sends as they are: the page (its HTML, its bundled script and style,
 * built by `npm run build` into dist/serve/page), and pdf.js's browser build and the data it
 * reads (CMaps, standard fonts, colour profiles, the JS image decoders), from the installed
 * pdfjs-dist. The table is made once at start from fixed names and the package's own folders;
 * a request looks a name up in it, so no path from a request ever reaches the filesystem.
 *
 * Left out on purpose: pdf.js's scripting sandbox (pdf.sandbox, quickjs-eval) and every .wasm
 * file (the policy forbids compiling WebAssembly; pdf.js then decodes JPX and JBIG2 images with
 * its JS fallbacks).
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { WEB_PAGE_DIR } from "../package-files.js";

export interface Asset {
  file: string;
  type: string;
  /** Sent as `cache-control`. */
  cache: string;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".bcmap": "application/octet-stream",
  ".pfb": "application/octet-stream",
  ".ttf": "font/ttf",
  ".icc": "application/vnd.iccprofile",
  ".svg": "image/svg+xml",
};

/** pdf.js's files change only with the package: their urls carry its version, so a browser keeps them. */
const FOREVER = "public, max-age=31536000, immutable";
/** The page's own files are checked at every load (they change with every build). */
const REVALIDATE = "no-cache";

export class Assets {
  private constructor(
    private readonly table: Map<string, Asset>,
    /** Where pdf.js's files are served, e.g. "/pdfjs/6.5.438/". */
    readonly pdfjsBase: string,
    private readonly indexHtml: string,
  ) {}

  /** Throws when the page was not built (run `npm run build`). */
  static async load(): Promise<Assets> {
    const pageDir = WEB_PAGE_DIR;
    for (const name of ["index.html", "app.js", "app.css"]) {
      if (!existsSync(join(pageDir, name))) throw new Error(`the web page is not built (${join(pageDir, name)} is missing): run \`npm run build\``);
    }
    const require = createRequire(import.meta.url);
    const pdfjsDir = dirname(require.resolve("pdfjs-dist/package.json"));
    const { version } = require("pdfjs-dist/package.json") as { version: string };
    const base = `/pdfjs/${version}/`;
    const table = new Map<string, Asset>();
    table.set("/assets/app.js", { file: join(pageDir, "app.js"), type: TYPES[".js"]!, cache: REVALIDATE });
    table.set("/assets/app.css", { file: join(pageDir, "app.css"), type: TYPES[".css"]!, cache: REVALIDATE });
    table.set("/assets/icon.svg", { file: join(pageDir, "icon.svg"), type: TYPES[".svg"]!, cache: REVALIDATE });
    for (const name of ["pdf.min.mjs", "pdf.worker.min.mjs"]) table.set(base + name, { file: join(pdfjsDir, "build", name), type: TYPES[".mjs"]!, cache: FOREVER });
    for (const folder of ["cmaps", "standard_fonts", "iccs"]) {
      for (const name of await readdir(join(pdfjsDir, folder))) {
        const type = TYPES[extname(name)];
        if (type) table.set(`${base}${folder}/${name}`, { file: join(pdfjsDir, folder, name), type, cache: FOREVER });
      }
    }
    for (const name of ["openjpeg_nowasm_fallback.js", "jbig2_nowasm_fallback.js"]) {
      table.set(`${base}wasm/${name}`, { file: join(pdfjsDir, "wasm", name), type: TYPES[".js"]!, cache: FOREVER });
    }
    const html = (await readFile(join(pageDir, "index.html"), "utf8")).replaceAll("%PDFJS_BASE%", base);
    return new Assets(table, base, html);
  }

  get(path: string): Asset | undefined {
    return this.table.get(path);
  }

  /** The page's HTML: the same document for every view (search, a document, a dropped PDF). */
  html(): string {
    return this.indexHtml;
  }

  /** Bytes of the page's own assets (HTML, script, style), for the report and the bench. */
  async pageBytes(): Promise<Record<string, number>> {
    const sizes: Record<string, number> = { "index.html": Buffer.byteLength(this.indexHtml) };
    for (const name of ["app.js", "app.css"]) sizes[name] = (await readFile(this.table.get(`/assets/${name}`)!.file)).length;
    return sizes;
  }
}

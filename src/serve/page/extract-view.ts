/**
 * Drop a PDF (or choose one): the server runs it through the pipeline's text stages and the
 * page shows what came out, in reflow and in preserve mode, with the same badges as an
 * archived document and the pages drawn from the file itself. Nothing is stored unless "Add to
 * the archive" is pressed, which saves the file into the source folder for the next run.
 */
import type { AddResponse, ArchiveInfo, ExtractResponse } from "../api-types.js";
import { postPdf } from "./api.js";
import { h, plural } from "./dom.js";
import { pageView, type PageView } from "./page-view.js";
import { PdfPages } from "./pdf-pages.js";

export function extractView(main: HTMLElement, info: ArchiveInfo): void {
  document.title = "Extract a PDF — pagestream";
  const input = h("input", { class: "visually-hidden", attrs: { type: "file", id: "file", accept: "application/pdf,.pdf" } });
  const status = h("p", { class: "status", attrs: { role: "status", "aria-live": "polite" } });
  const output = h("div", { class: "extract-output" });
  const zone = h(
    "div",
    { class: "dropzone", attrs: { id: "dropzone" } },
    input,
    h("label", { class: "button primary", attrs: { for: "file" } }, "Choose a PDF"),
    h("span", null, " or drop one here"),
    h("p", { class: "hint" }, `Up to ${Math.round(info.maxUploadBytes / 1048576)} MiB. It is extracted on this machine with the pipeline's stages; nothing is stored unless you add it.`),
  );
  main.replaceChildren(h("section", { class: "extract", attrs: { "aria-labelledby": "extract-heading" } }, h("h1", { attrs: { id: "extract-heading" } }, "Extract a PDF"), zone, status, output));

  let current: PdfPages | undefined;
  const take = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > info.maxUploadBytes) {
      status.textContent = "";
      output.replaceChildren(h("div", { class: "notice error", attrs: { role: "alert" } }, `${file.name} is ${Math.round(file.size / 1048576)} MiB, more than the upload limit (${Math.round(info.maxUploadBytes / 1048576)} MiB).`));
      return;
    }
    status.textContent = `Extracting ${file.name}…`;
    output.replaceChildren();
    await current?.close();
    current = undefined;
    try {
      const result = await postPdf<ExtractResponse>(`/api/extract?name=${encodeURIComponent(file.name)}`, file);
      status.textContent = `${file.name}: ${plural(result.pageCount, "page")} extracted.`;
      current = await showResult(output, result, file, info);
    } catch (err) {
      status.textContent = "";
      output.replaceChildren(h("div", { class: "notice error", attrs: { role: "alert" } }, h("strong", null, "Not extracted: "), (err as Error).message));
    }
  };
  input.addEventListener("change", () => void take(input.files?.[0]));
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dragging");
    void take(event.dataTransfer?.files[0]);
  });
}

async function showResult(output: HTMLElement, result: ExtractResponse, file: File, info: ArchiveInfo): Promise<PdfPages | undefined> {
  const views: PageView[] = result.pages.map((p) => pageView(p, { original: true }));
  const modeOf = () => (output.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value ?? result.pages[0]?.mode ?? "reflow") as "reflow" | "preserve";
  const showMode = () => {
    const mode = modeOf();
    views.forEach((v, i) => v.setText(result.pages[i]![mode], mode === result.pages[i]!.mode));
  };
  const radio = (value: string, label: string, hint: string) =>
    h("label", { class: "segment", attrs: { title: hint } }, h("input", { attrs: { type: "radio", name: "mode", value, checked: value === (result.pages[0]?.mode ?? "reflow") }, on: { change: showMode } }), h("span", null, label));
  const addStatus = h("p", { class: "status add-status", attrs: { role: "status", "aria-live": "polite" } });
  const add = info.canAdd
    ? h("button", {
        attrs: { type: "button" },
        on: {
          click: async () => {
            add!.disabled = true;
            try {
              const { saved } = await postPdf<AddResponse>(`/api/add?name=${encodeURIComponent(file.name)}`, file);
              addStatus.textContent = `Saved as ${saved} in the source folder: the next run adds it to the archive (a watching run, within seconds).`;
            } catch (err) {
              add!.disabled = false;
              addStatus.textContent = `Not added: ${(err as Error).message}`;
            }
          },
        },
      }, "Add to the archive")
    : null;
  const addNeedsToken = info.addNeedsToken
    ? h("p", { class: "notice add-needs-token" }, "To add this PDF to the archive, open the address `pagestream serve` printed: it carries the server's token, which adding a file needs.")
    : null;
  output.replaceChildren(
    h(
      "article",
      { class: "document" },
      h(
        "header",
        { class: "document-header" },
        h("h2", null, result.title || result.name),
        h("dl", { class: "document-facts" }, h("dt", null, "Pages"), h("dd", null, `${result.pageCount}${result.status === "scan" ? " · a scan" : ""}${result.tagged ? " · tagged" : ""}`), h("dt", null, "Document id"), h("dd", null, h("code", null, result.documentId.slice(0, 16) + "…"))),
        result.warnings.length ? h("ul", { class: "document-warnings" }, ...result.warnings.map((w) => h("li", { class: "notice warning" }, w.message))) : null,
        h("div", { class: "actions" }, h("fieldset", { class: "mode" }, h("legend", null, "Text"), radio("reflow", "Reflow", "Each paragraph's lines joined"), radio("preserve", "Preserve", "Every line as it is on the page")), add),
        addNeedsToken,
        addStatus,
      ),
      h("ol", { class: "pages" }, ...views.map((v) => v.element)),
    ),
  );
  try {
    const pages = await PdfPages.open(new Uint8Array(await file.arrayBuffer()));
    for (const v of views) if (v.surface) void pages.attach(v.surface);
    return pages;
  } catch {
    for (const v of views) v.surface?.sheet.closest(".page-original")?.remove();
    return undefined;
  }
}

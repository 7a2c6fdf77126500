/**
 * Where the sinks write must not be where anything else is: another sink's file (two writers
 * corrupt it), the source folder (the run would read what it writes, and could overwrite a
 * document), the pipeline file (a JSONL sink on pipeline.yaml overwrote it) or the run folder's
 * own files (the run state, its lock, its summary).
 *
 * Checked twice, by one rule: on the paths as the pipeline names them (pure, at their line in the
 * file), and then on real paths, found without changing anything, for what a symbolic link
 * hides (`alias/pages.jsonl` where `alias` links to `shared`).
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import type { ComponentConfig, PipelineConfig } from "./config.js";
import type { EnvironmentIssue } from "./environment-check.js";
import { runFolderFiles } from "./run-folder-files.js";

/** A file or folder: `path` to compare (absolute as named, or real), `shown` as the pipeline names it. */
export interface Place {
  path: string;
  shown: string;
}

/** A sink's file, with the option that names it. */
export interface SinkFile extends Place {
  option: string;
}

export interface OutputPlaces {
  pipelineFile: Place;
  /** Unknown when the top level of the pipeline is not valid. */
  runFolder?: Place;
  /** A source that reads a local folder. */
  sourceFolder?: Place;
  /** Each sink's files, by position in `sinks` (undefined for a sink whose own options are wrong). */
  sinks: (SinkFile[] | undefined)[];
}

export interface OutputCollision {
  sink: number;
  option: string;
  message: string;
}

/** Every collision, in sink order. */
export function outputCollisions(places: OutputPlaces): OutputCollision[] {
  const found: OutputCollision[] = [];
  const writers = new Map<string, { sink: number; shown: string }>();
  const { runFolder, sourceFolder: folder, pipelineFile } = places;
  const runFiles = runFolder ? runFolderFiles(runFolder.path) : [];
  places.sinks.forEach((files, sink) => {
    for (const file of files ?? []) {
      const report = (message: string) => found.push({ sink, option: file.option, message: `${file.shown} ${message}` });
      const other = writers.get(file.path);
      if (other) report(`is written by sinks[${other.sink}] too${sameFileAs(other.shown, file)}: two sinks on one file corrupt it; give each its own path`);
      else writers.set(file.path, { sink, shown: file.shown });
      if (folder && (file.path === folder.path || file.path.startsWith(folder.path + sep))) {
        report(`is inside the source folder ${folder.shown}: the run would read what it writes, and could overwrite a document; write it elsewhere`);
      }
      if (file.path === pipelineFile.path) report(`is the pipeline file${sameFileAs(pipelineFile.shown, file)}: the run would overwrite it; write it elsewhere`);
      if (runFolder && runFiles.includes(file.path)) {
        const name = basename(file.path);
        report(`is the run folder's own ${name}${sameFileAs(join(runFolder.shown, name), file)}, where the run keeps its state, lock and summary: write it elsewhere`);
      }
    }
  });
  return found;
}

/** " (the same file as shared/x.jsonl)" when a link made two names one file; nothing when the names say it. */
function sameFileAs(name: string, file: SinkFile): string {
  return name === file.shown ? "" : ` (the same file as ${name})`;
}

/**
 * The real path of `path`, which may not exist yet: the deepest part that exists, resolved
 * through its links, with the rest of the path after it. Nothing is created.
 */
export async function realPathOf(path: string): Promise<string> {
  let rest = "";
  for (let at = path; ; at = dirname(at)) {
    try {
      const real = await realpath(at);
      return rest ? join(real, rest) : real;
    } catch {
      if (dirname(at) === at) return path;
      rest = rest ? join(basename(at), rest) : basename(at);
    }
  }
}

/** The same places by their real paths, each sink file keeping the name the pipeline gives it. */
export async function realPlaces(places: OutputPlaces): Promise<OutputPlaces> {
  const real = async <P extends Place>(place: P): Promise<P> => ({ ...place, path: await realPathOf(place.path) });
  return {
    pipelineFile: await real(places.pipelineFile),
    ...(places.runFolder ? { runFolder: await real(places.runFolder) } : {}),
    ...(places.sourceFolder ? { sourceFolder: await real(places.sourceFolder) } : {}),
    sinks: await Promise.all(places.sinks.map((files) => (files ? Promise.all(files.map(real)) : undefined))),
  };
}

/** A place named as messages name it: relative to the pipeline's folder ("out/pages.jsonl"). */
export function placeIn(baseDir: string, path: string): Place {
  return { path, shown: relative(baseDir, path) || path };
}

/** The places a pipeline reads, keeps and writes, as it names them (absolute paths, resolved from its folder). */
export function outputPlaces(
  config: { baseDir: string; pipelineFile: string; runFolder?: string },
  source: ComponentConfig<"source"> | undefined,
  sinks: readonly (ComponentConfig<"sink"> | undefined)[],
): OutputPlaces {
  const { baseDir } = config;
  const folder = source?.spec.readsFolder?.(source.options, baseDir);
  return {
    pipelineFile: placeIn(baseDir, config.pipelineFile),
    ...(config.runFolder !== undefined ? { runFolder: placeIn(baseDir, resolve(baseDir, config.runFolder)) } : {}),
    ...(folder ? { sourceFolder: placeIn(baseDir, folder) } : {}),
    sinks: sinks.map((sink) => sink && (sink.spec.writesFiles?.(sink.options, baseDir) ?? []).map((file) => ({ ...placeIn(baseDir, file.path), option: file.option }))),
  };
}

/**
 * What only real paths show — two names for one file through a symbolic link — as issues of the
 * sinks concerned; the same rules as validation's. Reads, never creates.
 */
export async function linkedOutputCollisions(config: PipelineConfig, pipelineFile: string): Promise<EnvironmentIssue[]> {
  const places = outputPlaces({ baseDir: config.baseDir, pipelineFile: resolve(pipelineFile), runFolder: config.settings.run_folder }, config.source, config.sinks);
  return outputCollisions(await realPlaces(places)).map(({ sink, message }) => ({ path: `sinks[${sink}]`, type: config.sinks[sink]!.type, message }));
}

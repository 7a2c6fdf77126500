/**
 * A fault-injecting HTTP proxy on loopback, in front of the S3 server: it answers some requests
 * itself the way S3 does when it fails (503 SlowDown, 500, 403 AccessDenied), or passes them on
 * and breaks the response (cuts the body, stalls, drops Content-Length), and logs every request.
 * Requests are forwarded with their headers unchanged, so their signatures still verify.
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Fault {
  method?: string;
  /** Which requests, by their path and query (`/bucket/key?x-id=GetObject`, `/bucket?list-type=2…`). */
  path: RegExp;
  /** How many matching requests get the fault; later ones pass. */
  times: number;
  /** Answer with this S3 error instead of asking the server. */
  error?: { status: number; code: string; message: string; extra?: Record<string, string> };
  /** Pass the response on, but close the connection after this many bytes of its body. */
  cutBodyAfterBytes?: number;
  /** Pass the headers and this many bytes of the body on, then nothing more. */
  stallAfterBytes?: number;
  /** Pass the response on chunked, without its Content-Length. */
  dropContentLength?: boolean;
  /** Never answer. */
  hang?: boolean;
  /** Pass the request on after this many milliseconds. */
  delayMs?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  /** The status the client saw. */
  status: number;
  /** True when a fault answered or broke it. */
  faulted: boolean;
}

export interface FaultProxy {
  endpoint: string;
  requests: LoggedRequest[];
  /** The most downloads (GetObject requests) that were open at once since the last reset. */
  maxOpenDownloads(): number;
  /** Forgets the logged requests and the downloads counted. */
  reset(): void;
  inject(fault: Fault): void;
  /** Forgets the faults not used up. */
  clearFaults(): void;
  stop(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const faults: Fault[] = [];
  const requests: LoggedRequest[] = [];
  const take = (method: string, path: string) => {
    const fault = faults.find((f) => f.times > 0 && (!f.method || f.method === method) && f.path.test(path));
    if (fault) fault.times--;
    return fault;
  };
  let openDownloads = 0;
  let maxOpenDownloads = 0;
  const server = createServer((req, res) => {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    if (path.includes("x-id=GetObject")) {
      maxOpenDownloads = Math.max(maxOpenDownloads, ++openDownloads);
      res.on("close", () => openDownloads--);
    }
    const fault = take(method, path);
    if (fault?.hang) {
      requests.push({ method, path, status: 0, faulted: true });
      return;
    }
    if (fault?.error) {
      const { status, code, message, extra = {} } = fault.error;
      const fields = Object.entries({ Code: code, Message: message, ...extra, RequestId: "FAULTPROXY" })
        .map(([k, v]) => `<${k}>${v}</${k}>`)
        .join("");
      requests.push({ method, path, status, faulted: true });
      res.writeHead(status, { "content-type": "application/xml" });
      res.end(method === "HEAD" ? undefined : `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${fields}</Error>`);
      return;
    }
    if (fault?.delayMs) {
      req.pause();
      setTimeout(() => forward(req, res, method, path, fault), fault.delayMs);
    } else forward(req, res, method, path, fault);
  });
  const forward = (req: IncomingMessage, res: ServerResponse, method: string, path: string, fault: Fault | undefined) => {
    const upstreamRequest = request(
      { host: upstream.hostname, port: upstream.port, method, path, headers: req.headers },
      (answer) => {
        const status = answer.statusCode ?? 502;
        requests.push({ method, path, status, faulted: fault !== undefined });
        const headers: IncomingHttpHeaders = { ...answer.headers };
        if (fault?.dropContentLength) delete headers["content-length"];
        res.writeHead(status, headers);
        const limit = fault?.cutBodyAfterBytes ?? fault?.stallAfterBytes;
        if (limit === undefined) {
          answer.pipe(res);
          return;
        }
        let sent = 0;
        answer.on("data", (chunk: Buffer) => {
          if (sent >= limit) return;
          const part = chunk.subarray(0, limit - sent);
          sent += part.length;
          // Cut once the part is on its way, so the client has the headers and a part of the body.
          const cut = sent >= limit && fault?.cutBodyAfterBytes !== undefined;
          res.write(part, () => cut && res.socket?.destroy());
        });
      },
    );
    upstreamRequest.on("error", () => res.destroy());
    req.pipe(upstreamRequest);
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    maxOpenDownloads: () => maxOpenDownloads,
    reset() {
      requests.length = 0;
      maxOpenDownloads = openDownloads;
    },
    inject: (fault) => faults.push(fault),
    clearFaults: () => faults.splice(0),
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

// HTTP to pitch serve (docs/protocol.md, "HTTP"): one function, refusals as ApiError.

/** A refusal from the server: `{reason, message}` with the HTTP status (docs/protocol.md). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} reason
   * @param {string} message
   */
  constructor(status, reason, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.reason = reason;
  }
}

/**
 * Call the server's HTTP API.
 * @param {string} method "GET", "POST" …
 * @param {string} path e.g. "/api/tables"
 * @param {unknown} [body] sent as JSON
 * @param {string | null} [token] a seat token, sent as `Authorization: Bearer`
 * @returns {Promise<any>} the JSON answer (or the text of a `text/plain` one)
 */
export async function api(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const reason = typeof data === "object" && data ? String(data.reason) : "http";
    const message = typeof data === "object" && data ? String(data.message)
      : `The server answered ${response.status}.`;
    throw new ApiError(response.status, reason, message);
  }
  return data;
}

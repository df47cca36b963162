// The WASI imports of the component, stubbed — the Node counterpart of the Rust host's EMPTY WasiCtx.
//
// A wasm32-wasip2 Rust std build imports 13 wasi:io / wasi:cli interfaces; none gives the component any
// real capability here:
//   wasi:cli/environment  get-environment -> [] (no variables, no arguments)
//   wasi:cli/exit         exit -> traps (the call fails as a component trap, like wasmtime's exit)
//   wasi:cli/stdin        an input stream with no methods the component can call (nothing to read)
//   wasi:cli/stdout       an output stream that discards every byte
//   wasi:cli/stderr       an output stream captured into a capped in-memory buffer, used only for the
//                         trap message (`guest_stderr`); never written to the process's stderr
//   wasi:cli/terminal-*   no terminal (none)
//   wasi:io/poll, error   a pollable that is always ready; an error resource nothing creates
// No filesystem, sockets, clocks, random or http are provided at all, so a component importing them
// could not be instantiated. Nothing here touches process.stdout, process.env, the file system or time.

/** Build a fresh set of stubs for one call. `maxStderrBytes` caps the captured stderr. */
export function makeWasiStubs(maxStderrBytes = 64 << 10) {
  const stderrChunks = [];
  let stderrBytes = 0;

  class Pollable {
    block() {}
    ready() { return true; }
  }
  class IoError {
    toDebugString() { return 'error'; }
  }
  class InputStream {}
  class OutputStream {
    constructor(sink) { this.sink = sink; }
    checkWrite() { return 4096n; }
    write(contents) { this.sink(contents); }
    blockingWriteAndFlush(contents) { this.sink(contents); }
    flush() {}
    blockingFlush() {}
    subscribe() { return new Pollable(); }
  }
  class TerminalInput {}
  class TerminalOutput {}

  const discard = () => {};
  const capture = (bytes) => {
    const room = maxStderrBytes - stderrBytes;
    if (room <= 0) return;
    const chunk = bytes.length > room ? bytes.slice(0, room) : bytes.slice();
    stderrChunks.push(chunk);
    stderrBytes += chunk.length;
  };
  const stdout = new OutputStream(discard);
  const stderr = new OutputStream(capture);
  const stdin = new InputStream();

  const imports = {
    'wasi:cli/environment': {
      getEnvironment: () => [],
      getArguments: () => [],
      initialCwd: () => undefined,
    },
    'wasi:cli/exit': {
      exit: (status) => {
        throw new WebAssembly.RuntimeError(`the component called wasi:cli/exit (${status && status.tag === 'ok' ? 'success' : 'failure'})`);
      },
    },
    'wasi:cli/stdin': { getStdin: () => stdin },
    'wasi:cli/stdout': { getStdout: () => stdout },
    'wasi:cli/stderr': { getStderr: () => stderr },
    'wasi:cli/terminal-input': { TerminalInput },
    'wasi:cli/terminal-output': { TerminalOutput },
    'wasi:cli/terminal-stdin': { getTerminalStdin: () => undefined },
    'wasi:cli/terminal-stdout': { getTerminalStdout: () => undefined },
    'wasi:cli/terminal-stderr': { getTerminalStderr: () => undefined },
    'wasi:io/error': { Error: IoError },
    'wasi:io/poll': { Pollable, poll: (list) => list.map((_, i) => i) },
    'wasi:io/streams': { InputStream, OutputStream },
  };
  return {
    imports,
    /** What the component wrote to stderr (panic messages), as text. */
    stderrText: () => Buffer.concat(stderrChunks.map((c) => Buffer.from(c))).toString('utf8'),
  };
}

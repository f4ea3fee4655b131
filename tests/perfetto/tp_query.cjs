// SPDX-License-Identifier: MIT
// tests/perfetto/tp_query.cjs ASSETS TRACE QUERY.sql - the Node half of
// tests/perfetto/tp-query (read its header first): runs Perfetto's trace
// processor from ASSETS (the files tp-query fetched and checked) on TRACE
// and prints the rows of QUERY.sql.
//
// The files are Perfetto UI's own, built for a browser:
//   engine_bundle.node.js  the UI's Web Worker script: Emscripten's loader
//                          for trace_processor.wasm, and a bridge that
//                          passes the bytes of Perfetto's RPC protocol
//                          (TraceProcessorRpc) between a MessagePort and
//                          the WebAssembly instance;
//   engine.mjs             EngineBase, the UI's client of that protocol:
//                          it encodes "append trace data", "end of trace"
//                          and "query" requests and decodes the results.
// In the UI a Worker runs the first and the page holds the second, joined
// by a MessageChannel.  Here both run in this one Node process, still
// joined by a MessageChannel, which Node has.
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { pathToFileURL } = require('url');

// Lines the engine writes (its progress, its notes on each trace) matter
// only when something fails; stdout carries the rows alone.
const engineLog = [];
function keepLog(...args) {
	engineLog.push(args.map(String).join(' '));
	if (engineLog.length > 200) engineLog.shift();
}

function fail(code, message) {
	process.stderr.write(`tp-query: ${message}\n`);
	if (engineLog.length) process.stderr.write(`tp-query: the engine said:\n${engineLog.slice(-20).join('\n')}\n`);
	process.exit(code);
}

// The bundle decides where it runs by looking at globals.  It must take
// its Web Worker path: that is the one it was built for (its plain-script
// path refuses to start under Node), and on it the worker's message
// handler is set up.  A worker has `self` for its global scope, a
// WorkerGlobalScope constructor, and `self.location`, from which
// Emscripten takes the folder it would fetch the .wasm from.
function actAsWorker(assets) {
	globalThis.self = globalThis;
	globalThis.WorkerGlobalScope = function WorkerGlobalScope() {};
	globalThis.location = { href: pathToFileURL(assets).href + '/' };
}

// Two edits to the bundle's text before it runs; each replaces a line that
// must be there exactly once, so a different bundle stops here rather than
// half-working.
function editBundle(text) {
	const edits = [
		// The bundle picks the 64-bit-memory build of the engine whenever
		// the JavaScript engine can compile memory64 WebAssembly (Node 24
		// can; Node 18 and 20 cannot).  The package ships only the 32-bit
		// build, trace_processor.wasm, so always take that one.
		['this.useMemory64 = hasMemory64Support();', 'this.useMemory64 = false;'],
		// In a worker Emscripten loads the .wasm with a synchronous
		// XMLHttpRequest, which Node lacks.  Emscripten takes the module's
		// bytes from `wasmBinary` when it is given, and the bundle gives
		// no way to pass it but its own options object: add it there.  A
		// `postRun` hook there too says when the runtime has started.
		['locateFile: (s) => s,',
			'locateFile: (s) => s, wasmBinary: globalThis.tracecatTp.wasm, postRun: [globalThis.tracecatTp.started],'],
	];
	for (const [from, to] of edits) {
		const at = text.indexOf(from);
		if (at < 0 || text.indexOf(from, at + 1) >= 0)
			fail(2, `engine_bundle.node.js is not the bundle this runner knows: "${from}" is not there exactly once`);
		text = text.slice(0, at) + to + text.slice(at + from.length);
	}
	return text;
}

// Values as the rows print them: strings JSON-quoted (a comma or a quote
// in a name stays readable), NULL as [NULL], integers in full (the engine
// gives 64-bit ones as BigInt).
function cell(v) {
	if (v === null || v === undefined) return '[NULL]';
	if (typeof v === 'string') return JSON.stringify(v);
	if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v).toString('hex'));
	return String(v);
}

async function main() {
	const [assets, tracePath, sqlPath] = process.argv.slice(2);
	if (!sqlPath) fail(2, 'usage: tp_query.cjs ASSETS TRACE QUERY.sql');
	const sql = fs.readFileSync(sqlPath, 'utf8');

	// EngineBase's class is all this needs from engine.mjs, an ES module.
	const { EngineBase } = await import(pathToFileURL(path.join(assets, 'engine.mjs')).href);

	actAsWorker(assets);
	let started;
	const startedP = new Promise((resolve) => { started = resolve; });
	globalThis.tracecatTp = {
		wasm: fs.readFileSync(path.join(assets, 'trace_processor.wasm')),
		started: () => started(),
	};

	// The engine reports through console.log and console.warn (Emscripten's
	// stdout and stderr, and the client's notes on result fields it does
	// not know): keep those lines aside.
	console.log = keepLog;
	console.warn = keepLog;

	// Running the bundle starts the engine: it instantiates the WebAssembly
	// module, and sets `self.onmessage` to take the one message a worker
	// gets first, the MessagePort to serve.
	const bundle = path.join(assets, 'engine_bundle.node.js');
	vm.runInThisContext(editBundle(fs.readFileSync(bundle, 'utf8')), { filename: bundle });
	if (typeof globalThis.onmessage !== 'function') fail(2, 'the bundle set no worker message handler');
	await startedP;
	// The bridge opens its RPC channel (trace_processor_rpc_init, which
	// gives it the buffer requests are copied into) in a promise callback
	// run after the runtime's start: let that callback run before any
	// request comes.
	await new Promise((resolve) => setImmediate(resolve));

	const channel = new MessageChannel();
	globalThis.onmessage({ data: channel.port1 });

	// EngineBase leaves the transport to its subclass: requests go out as
	// bytes through rpcSendRequestBytes, replies come back to
	// onRpcResponseBytes.
	class PortEngine extends EngineBase {
		constructor(port) {
			super();
			this.id = 'tracecat';
			this.mode = 'WASM';
			this.port = port;
			port.onmessage = (m) => this.onRpcResponseBytes(m.data);
		}
		rpcSendRequestBytes(bytes) {
			this.port.postMessage(bytes);
		}
	}
	const engine = new PortEngine(channel.port2);

	// The trace goes in by pieces, as the UI sends a file: a trace of any
	// size never has to be in memory twice.
	const fd = fs.openSync(tracePath, 'r');
	const piece = Buffer.alloc(16 << 20);
	for (;;) {
		const n = fs.readSync(fd, piece, 0, piece.length, null);
		if (n === 0) break;
		// The bridge may keep the bytes after the call: give it a copy.
		await engine.parse(new Uint8Array(piece.subarray(0, n)));
	}
	fs.closeSync(fd);
	await engine.notifyEof();

	let result;
	try {
		result = await engine.query(sql);
	} catch (e) {
		fail(1, `the query failed: ${e && e.message ? e.message : e}`);
	}
	if (result.error()) fail(1, `the query failed: ${result.error()}`);

	const columns = result.columns();
	const lines = [columns.map((c) => JSON.stringify(c)).join(',')];
	for (const it = result.iter({}); it.valid(); it.next())
		lines.push(columns.map((c) => cell(it.get(c))).join(','));
	// Written synchronously: the process ends right after, and the
	// engine's handles would otherwise keep it alive.
	fs.writeSync(1, lines.join('\n') + '\n');
	channel.port1.close();
	channel.port2.close();
	process.exit(0);
}

main().catch((e) => fail(2, (e && e.stack) || String(e)));

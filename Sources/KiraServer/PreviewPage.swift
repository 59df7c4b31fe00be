#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The live preview's page, `GET /`: HTML, CSS and JavaScript in one document, kept in the
/// binary (nothing to install beside `kira`, nothing fetched from elsewhere, so it works
/// offline).
///
/// The page only forwards input and paints frames: pointer offsets, presses, releases, flips and
/// control changes go to `/live` as JSON; the server computes every pose (the seed's drag mapping
/// and springs, ``/KiraAnimation/InteractiveCard``) and sends frames back. Its controls are made
/// from the configuration the server writes into it (the request parameters' own ranges and
/// words). `window.kiraPreviewStats` holds the figures a test or a benchmark reads.
enum PreviewPage {
    /// The page with `configuration` (JSON) written into it.
    static func html(configuration: String) -> String {
        // A JSON string cannot end the script element early once "</" is written "<\/".
        head + configuration.replacing("</", with: "<\\/") + tail
    }

    private static let head = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Kira live preview</title>
    <style>
    :root { color-scheme: light dark; font: 15px/1.4 system-ui, sans-serif; --line: #8886; --muted: #888; --accent: #7a5cff; }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 12px; display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); max-width: 1200px; margin-inline: auto; }
    header h1 { margin: 0; font-size: 1.25rem; font-weight: 600; }
    header p { margin: 2px 0 0; color: var(--muted); font-size: 0.9rem; }
    #stage { position: relative; touch-action: none; user-select: none; min-width: 0; justify-self: center; }
    #card { display: block; max-width: 100%; max-height: 80vh; width: auto; height: auto; cursor: grab; outline-offset: 4px; background: #fff; border-radius: 6px; }
    #card:active { cursor: grabbing; }
    #status { position: absolute; left: 8px; top: 8px; right: 8px; padding: 4px 8px; border-radius: 4px; background: #b00020; color: #fff; }
    #status[hidden] { display: none; }
    #panel { display: grid; gap: 10px; align-content: start; min-width: 0; }
    fieldset { margin: 0; padding: 8px 10px 10px; border: 1px solid var(--line); border-radius: 8px; display: grid; gap: 8px; min-width: 0; }
    legend { padding: 0 4px; color: var(--muted); font-size: 0.85rem; }
    .control { display: grid; grid-template-columns: 8.5em minmax(0, 1fr) 3.5em; gap: 8px; align-items: center; min-height: 32px; }
    .control > :only-child { grid-column: 2 / 4; }
    .control output { text-align: right; font-variant-numeric: tabular-nums; }
    input, select, button { font: inherit; min-width: 0; width: 100%; min-height: 32px; }
    input[type=range] { accent-color: var(--accent); }
    #foils { display: flex; flex-wrap: wrap; gap: 6px; }
    #foils label { flex: 1 0 5.5em; position: relative; }
    #foils input { position: absolute; opacity: 0; inset: 0; margin: 0; min-height: 0; }
    #foils span { display: block; text-align: center; padding: 5px 6px; border: 1px solid var(--line); border-radius: 16px; cursor: pointer; }
    #foils input:checked + span { background: var(--accent); border-color: var(--accent); color: #fff; }
    #foils input:focus-visible + span { outline: 2px solid var(--accent); outline-offset: 2px; }
    .actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
    .actions > * { width: auto; }
    code { display: block; white-space: pre-wrap; word-break: break-all; font-size: 12px; padding: 6px; border: 1px solid var(--line); border-radius: 4px; }
    #stats { font-variant-numeric: tabular-nums; color: var(--muted); font-size: 0.85rem; }
    @media (min-width: 760px) {
      /* The card's column is as wide as its canvas where the window allows: a canvas drawn smaller
         than its pixels is resampled by the browser for every frame. */
      body { grid-template-columns: minmax(0, max-content) minmax(300px, 380px); justify-content: center; max-width: none; padding: 16px 24px; gap: 16px 24px; }
      header { grid-column: 1 / -1; }
      #card { max-height: calc(100vh - 110px); }
    }
    </style>
    </head>
    <body>
    <header>
      <h1>Kira live preview</h1>
      <p>Drag the card (or use the arrow keys) to tilt it; click it (or press space) to flip it.</p>
    </header>
    <div id="stage">
      <canvas id="card" tabindex="0" role="img" aria-label="The card: drag or use the arrow keys to tilt it, click or press space to flip it"></canvas>
      <div id="status" role="status" hidden></div>
    </div>
    <div id="panel">
      <fieldset id="look"><legend>Foil</legend><div id="foils" role="radiogroup" aria-label="Foil"></div></fieldset>
      <fieldset id="params"><legend>Look</legend></fieldset>
      <fieldset id="view"><legend>View</legend>
        <label class="control">Card <select id="c-card"></select></label>
      </fieldset>
      <button id="orient" type="button" hidden>Tilt with this device</button>
      <div class="actions"><a id="download" href="#" download="card.png">Download this frame (PNG)</a><button id="copy" type="button">Copy the command</button></div>
      <code id="command"></code>
      <div id="stats"></div>
    </div>
    <script>
    const config = 
    """#

    private static let tail = #"""
    ;
    (() => {
      const canvas = document.getElementById('card'), context = canvas.getContext('2d');
      const status = document.getElementById('status'), stats = document.getElementById('stats');
      const stat = window.kiraPreviewStats = { framesPainted: 0, fps: 0, latencyP95Ms: 0, lastFrame: null };
      const controls = {}, sentAt = new Map(), painted = [], latencies = [];
      let socket = null, nextId = 1, retry = 500, lastRegion = null, lastFill = null;
      canvas.width = config.canvas.width; canvas.height = config.canvas.height;

      function send(message) {
        if (!socket || socket.readyState !== WebSocket.OPEN) return;
        if (message.type !== 'ack') { message.id = nextId++; sentAt.set(message.id, performance.now()); }
        socket.send(JSON.stringify(message));
      }
      function setControl(name, value) { controls[name] = String(value); send({ type: 'set', name, value: String(value) }); }

      // Controls, from the server's description of its parameters: numbers with a range and a
      // default are sliders that show their value, words a picker, the rest text boxes.
      const title = (name) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');
      function row(parent, name, help, input, unit) {
        const label = document.createElement('label'); label.className = 'control'; label.title = help || '';
        label.append(title(name), input); input.id = 'c-' + name;
        if (unit !== undefined) {
          const output = document.createElement('output'); output.htmlFor = input.id; label.append(output);
          const show = () => { output.textContent = input.value + unit; };
          input.addEventListener('input', show); show();
        }
        parent.append(label);
        return input;
      }
      function slider(parent, name, help, range, unit) {
        const input = document.createElement('input');
        const span = range.max - range.min, step = span <= 2 ? 0.01 : span <= 20 ? 0.1 : 1;
        Object.assign(input, { type: 'range', min: range.min, max: range.max, step, value: range.default });
        input.onchange = () => setControl(name, input.value);
        return row(parent, name, help, input, unit);
      }
      const cardSelect = document.getElementById('c-card');
      for (const id of config.cards) cardSelect.add(new Option(id, id, id === config.card, id === config.card));
      cardSelect.onchange = () => setControl('card', cardSelect.value);
      const view = document.getElementById('view');
      slider(view, 'tilt_limit', 'How far the card tilts, in degrees', config.tiltLimit, '°');
      const width = slider(view, 'width', 'The card\'s width on screen, in pixels', config.width, ' px'); width.step = 2;
      const params = document.getElementById('params'), foils = document.getElementById('foils');
      for (const p of config.parameters) {
        if (p.name === 'foil' && p.choices) {
          for (const word of p.choices) {
            const label = document.createElement('label'), input = document.createElement('input'), text = document.createElement('span');
            Object.assign(input, { type: 'radio', name: 'foil', value: word, checked: word === p.default });
            input.onchange = () => { if (input.checked) setControl('foil', word); };
            text.textContent = word; label.title = p.help; label.append(input, text); foils.append(label);
          }
          continue;
        }
        let input;
        if (p.choices) {
          input = document.createElement('select');
          for (const word of p.choices) input.add(new Option(word, word, word === p.default, word === p.default));
          input.onchange = () => setControl(p.name, input.value);
        } else if (p.min !== undefined && p.default !== undefined) {
          slider(params, p.name, p.help, { min: p.min, max: p.max, default: p.default }, '');
          continue;
        } else {
          input = document.createElement('input');
          if (p.min !== undefined) Object.assign(input, { type: 'number', min: p.min, max: p.max, step: 'any', placeholder: 'from the shader' });
          else input.value = p.default || '';
          input.onchange = () => { if (input.checkValidity()) setControl(p.name, input.value); };
        }
        row(params, p.name, p.help, input);
      }
      if (!foils.children.length) document.getElementById('look').hidden = true;

      // Input: a drag tilts, a press and release without moving flips (a drag never does).
      let press = null, keys = { x: 0, y: 0 };
      canvas.addEventListener('pointerdown', (e) => {
        press = { x: e.clientX, y: e.clientY, moved: false };
        canvas.setPointerCapture(e.pointerId); canvas.focus(); e.preventDefault();
      });
      canvas.addEventListener('pointermove', (e) => {
        if (!press) return;
        const dx = e.clientX - press.x, dy = e.clientY - press.y;
        if (!press.moved && Math.hypot(dx, dy) < 4) return;
        press.moved = true;
        send({ type: 'drag', dx, dy });
      });
      const up = () => {
        if (!press) return;
        send({ type: press.moved ? 'release' : 'flip' });
        press = null;
      };
      canvas.addEventListener('pointerup', up);
      canvas.addEventListener('pointercancel', () => { if (press && press.moved) send({ type: 'release' }); press = null; });
      const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }, held = new Set();
      canvas.addEventListener('keydown', (e) => {
        if (e.key === ' ') { e.preventDefault(); if (!e.repeat) send({ type: 'flip' }); return; }
        const step = arrows[e.key]; if (!step) return;
        e.preventDefault(); held.add(e.key);
        keys.x += 8 * step[0]; keys.y += 8 * step[1];
        send({ type: 'drag', dx: keys.x, dy: keys.y });
      });
      canvas.addEventListener('keyup', (e) => {
        if (!held.delete(e.key) || held.size) return;
        keys = { x: 0, y: 0 }; send({ type: 'release' });
      });

      // A phone's orientation tilts the card, from how it was held when the button was pressed.
      const orientButton = document.getElementById('orient');
      if ('DeviceOrientationEvent' in window && matchMedia('(pointer: coarse)').matches) orientButton.hidden = false;
      orientButton.onclick = async () => {
        if (DeviceOrientationEvent.requestPermission && await DeviceOrientationEvent.requestPermission() !== 'granted') return;
        let rest = null, pending = null;
        addEventListener('deviceorientation', (e) => {
          if (e.beta === null) return;
          rest = rest || { beta: e.beta, gamma: e.gamma };
          if (!pending) pending = requestAnimationFrame(() => pending = null);
          else return;
          send({ type: 'orient', beta: e.beta - rest.beta, gamma: e.gamma - rest.gamma });
        });
      };
      const reduced = matchMedia('(prefers-reduced-motion: reduce)');
      reduced.onchange = () => setControl('reduced_motion', reduced.matches);

      document.getElementById('copy').onclick = () => navigator.clipboard && navigator.clipboard.writeText(document.getElementById('command').textContent);

      // Frames: 4 bytes of header length, the header (JSON), the image of the header's region
      // of the canvas; the rest of the canvas is the header's fill colour.
      async function paint(data) {
        const view = new DataView(data), length = view.getUint32(0);
        const header = JSON.parse(new TextDecoder().decode(new Uint8Array(data, 4, length)));
        const region = header.region, raw = header.mediaType === 'application/x-kira-rgba';
        const bitmap = raw || region.width === 0 ? null
          : await createImageBitmap(new Blob([new Uint8Array(data, 4 + length)], { type: header.mediaType }));
        // Outside the image the canvas is the fill colour: only the last image's rectangle needs
        // it again, unless the canvas or the colour changed.
        const fill = header.fill || [0, 0, 0, 0], fillKey = fill.join();
        let stale = lastRegion;
        if (canvas.width !== header.canvasWidth || canvas.height !== header.canvasHeight || fillKey !== lastFill) {
          canvas.width = header.canvasWidth; canvas.height = header.canvasHeight;
          stale = { x: 0, y: 0, width: canvas.width, height: canvas.height };
        }
        if (stale) {
          context.clearRect(stale.x, stale.y, stale.width, stale.height);
          if (fill[3] > 0) {
            context.fillStyle = `rgba(${fill[0]},${fill[1]},${fill[2]},${fill[3] / 255})`;
            context.fillRect(stale.x, stale.y, stale.width, stale.height);
          }
        }
        lastRegion = region; lastFill = fillKey;
        if (raw && region.width > 0) {
          const pixels = new Uint8ClampedArray(data, 4 + length, region.width * region.height * 4);
          context.putImageData(new ImageData(pixels, region.width, region.height), region.x, region.y);
        } else if (bitmap) {
          context.clearRect(region.x, region.y, region.width, region.height);
          context.drawImage(bitmap, region.x, region.y);
          bitmap.close();
        }
        send({ type: 'ack' });
        const now = performance.now();
        stat.framesPainted++; stat.lastFrame = header;
        painted.push(now);
        while (painted.length && now - painted[0] > 2000) painted.shift();
        stat.fps = painted.length > 1 ? 1000 * (painted.length - 1) / (now - painted[0]) : 0;
        if (sentAt.has(header.input)) {
          latencies.push(now - sentAt.get(header.input));
          if (latencies.length > 300) latencies.shift();
          for (const id of sentAt.keys()) if (id <= header.input) sentAt.delete(id);
          const sorted = [...latencies].sort((a, b) => a - b);
          stat.latencyP95Ms = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
        }
        document.getElementById('download').href = header.url;
        document.getElementById('command').textContent = header.command;
        canvas.dataset.flip = header.flip; canvas.dataset.back = header.back;
        stats.textContent = `${stat.framesPainted} frames · ${stat.fps.toFixed(1)} frames/s · p95 latency ${stat.latencyP95Ms.toFixed(0)} ms · render ${header.renderMilliseconds.toFixed(0)} ms`;
      }

      function connect() {
        socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/live');
        socket.binaryType = 'arraybuffer';
        let chain = Promise.resolve();
        socket.onopen = () => {
          status.hidden = true; retry = 500;
          if (reduced.matches) controls.reduced_motion = 'true';
          for (const [name, value] of Object.entries(controls)) send({ type: 'set', name, value });
        };
        socket.onmessage = (e) => {
          if (typeof e.data === 'string') { const m = JSON.parse(e.data); status.textContent = m.message; status.hidden = false; setTimeout(() => status.hidden = true, 3000); return; }
          chain = chain.then(() => paint(e.data)).catch((error) => { status.textContent = String(error); status.hidden = false; });
        };
        socket.onclose = (e) => {
          status.textContent = (e.reason || 'The server is gone') + ': reconnecting…'; status.hidden = false;
          setTimeout(connect, retry); retry = Math.min(retry * 2, 5000);
        };
      }
      connect();
    })();
    </script>
    </body>
    </html>
    """#
}
#endif

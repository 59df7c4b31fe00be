#if Server
extension PreviewPage {
    /// The server stream: the canvas's input goes to `/live`, and its frames come back and are
    /// painted; connected only while the stream is on screen (``script`` starts and stops it).
    static let streamScript = #"""
      // The stream: input to /live, frames from it.
      const context = canvas.getContext('2d');
      const sentAt = new Map(), painted = [], latencies = [];
      let socket = null, reconnect = null, nextId = 1, retry = 500, lastRegion = null, lastFill = null;
      canvas.width = config.canvas.width; canvas.height = config.canvas.height;

      function send(message) {
        if (!socket || socket.readyState !== WebSocket.OPEN) return;
        if (message.type !== 'ack') { message.id = nextId++; sentAt.set(message.id, performance.now()); }
        socket.send(JSON.stringify(message));
      }

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
        document.getElementById('download').href = '.' + header.url;   // beside the page too
        document.getElementById('command').textContent = header.command;
        canvas.dataset.flip = header.flip; canvas.dataset.back = header.back;
        if (stat.mode === 'server') showStats();
      }

      function connect() {
        reconnect = null;
        // Beside the page, so that a proxy may serve it under a path prefix.
        const live = new URL('live', location.href);
        live.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
        socket = new WebSocket(live);
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
          reconnect = setTimeout(connect, retry); retry = Math.min(retry * 2, 5000);
        };
      }

      // The stream runs only while it is on screen: in the browser mode the server renders nothing.
      function startStream() {
        if (socket || reconnect) return;
        connect();
      }
      function stopStream() {
        clearTimeout(reconnect); reconnect = null;
        if (socket) {
          socket.onclose = socket.onmessage = null;
          socket.close(1000, 'rendering in the browser');
          socket = null;
        }
        status.hidden = true; retry = 500;
      }

    """#
}
#endif

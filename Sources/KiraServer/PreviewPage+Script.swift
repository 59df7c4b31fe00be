#if Server
extension PreviewPage {
    /// The page's controls, built from the configuration, and where the card is rendered: the
    /// switch between `<kira-card>` in the browser and the server's stream
    /// (``streamScript``, the same function scope: it defines `send`, `startStream` and
    /// `stopStream`, and the stream's figures in `stat`).
    static let script = #"""
      const canvas = document.getElementById('card'), stage = document.getElementById('stage');
      const status = document.getElementById('status'), stats = document.getElementById('stats');
      const fallback = document.getElementById('fallback');
      // The stream's figures at the top (as they always were), the browser's under `browser`, and
      // which one is on screen (`mode`: 'browser' or 'server'; `fallback`: why not the browser).
      const stat = window.kiraPreviewStats = {
        mode: null, fallback: null, framesPainted: 0, fps: 0, latencyP95Ms: 0, lastFrame: null,
        browser: { loaded: false, framesPainted: 0, fps: 0, rendering: null, pose: null, renderMs: 0 },
      };
      const controls = {};
      let card = null;   // <kira-card>, once the browser mode started

      function setControl(name, value) {
        controls[name] = String(value);
        send({ type: 'set', name, value: String(value) });
        applyToCard(name, String(value));
      }

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

      // The browser mode: <kira-card> takes the controls it has as attributes (kira render's
      // words and ranges, the same as the server's), the card as its file's URL and the width as
      // its width on screen. The other controls are the stream's alone, and greyed meanwhile.
      const attributes = { foil: 'foil', intensity: 'intensity', glare: 'glare', tilt_limit: 'tilt-limit' };
      const cardFile = (id) => config.bundle.cardFile.replace('{id}', encodeURIComponent(id));
      function applyToCard(name, value) {
        if (!card) return;
        if (name === 'card') card.setAttribute('card', cardFile(value));
        else if (name === 'width') card.style.width = value + 'px';
        else if (attributes[name]) value === '' ? card.removeAttribute(attributes[name]) : card.setAttribute(attributes[name], value);
      }
      const streamOnly = () => config.parameters.map((p) => p.name).filter((name) => name !== 'foil' && !attributes[name])
        .map((name) => document.getElementById('c-' + name)).filter(Boolean);

      const modeInputs = [...document.querySelectorAll('input[name=render]')];
      const browserInput = modeInputs.find((input) => input.value === 'browser');
      for (const input of modeInputs) input.onchange = () => { if (input.checked) choose(input.value); };

      function showStats() {
        if (stat.mode === 'browser') {
          const b = stat.browser;
          stats.textContent = `In your browser (${b.rendering || 'loading'}) · ${b.framesPainted} frames · ${b.fps.toFixed(1)} frames/s · render ${b.renderMs.toFixed(0)} ms`;
        } else {
          stats.textContent = `Server stream · ${stat.framesPainted} frames · ${stat.fps.toFixed(1)} frames/s · p95 latency ${stat.latencyP95Ms.toFixed(0)} ms`
            + (stat.lastFrame ? ` · render ${stat.lastFrame.renderMilliseconds.toFixed(0)} ms` : '');
        }
      }

      // The mode in the address (?render=browser or server), so a reload or a test keeps it.
      function choose(mode) {
        const url = new URL(location.href);
        url.searchParams.set('render', mode);
        history.replaceState(null, '', url);
        if (mode === 'browser') useBrowser(); else useServer();
      }

      function useServer() {
        stat.mode = 'server';
        document.body.dataset.mode = 'server';
        for (const input of modeInputs) input.checked = input.value === 'server';
        for (const input of streamOnly()) input.disabled = false;
        if (card) card.hidden = true;   // a hidden element has no size, so it renders nothing
        canvas.hidden = false;
        startStream();
        showStats();
      }

      // The stream instead of the browser, for good: `why` says so on the page.
      function fallBack(why) {
        stat.fallback = why;
        fallback.textContent = `Showing the server stream: ${why}.`;
        fallback.hidden = false;
        browserInput.disabled = true;
        useServer();
      }

      async function useBrowser() {
        if (!config.bundle) return fallBack('this server has no browser bundle (kira serve --web DIR)');
        if (typeof WebAssembly !== 'object') return fallBack('this browser has no WebAssembly');
        stat.mode = 'browser';
        document.body.dataset.mode = 'browser';
        for (const input of modeInputs) input.checked = input.value === 'browser';
        stopStream();
        canvas.hidden = true;
        showStats();
        try {
          await import(config.bundle.module);
        } catch (error) {
          return fallBack(`the browser bundle did not load (${error.message})`);
        }
        if (stat.mode !== 'browser') return;   // switched back meanwhile
        for (const input of streamOnly()) { input.disabled = true; input.title = 'The server stream\'s alone'; }
        if (!card) {
          card = document.createElement('kira-card');
          card.setAttribute('aria-label', canvas.getAttribute('aria-label'));
          card.setAttribute('card', cardFile(controls.card ?? config.card));
          card.style.width = (controls.width ?? config.width.default) + 'px';
          for (const [name, attribute] of Object.entries(attributes)) {
            if (controls[name] !== undefined && controls[name] !== '') card.setAttribute(attribute, controls[name]);
          }
          // An error before the first frame (the module's WebAssembly refused, the card's file
          // not found) leaves the stream; later ones are shown as the stream's are.
          card.addEventListener('error', (event) => {
            if (!stat.browser.loaded) { card.remove(); card = null; fallBack(`the browser could not draw the card (${event.detail.message})`); return; }
            status.textContent = event.detail.message; status.hidden = false; setTimeout(() => status.hidden = true, 3000);
          });
          card.addEventListener('load', () => { stat.browser.loaded = true; sample(); });
          stage.append(card);
        }
        card.hidden = false;
      }

      // The element's figures, sampled: frames/s over its last 2 s of frames, as the stream's.
      function sample() {
        if (!card || stat.mode !== 'browser') return;
        const s = card.stats, now = performance.now(), recent = s.paintTimesMs.filter((t) => now - t <= 2000);
        Object.assign(stat.browser, {
          framesPainted: s.framesPainted, rendering: card.rendering, pose: card.pose,
          fps: recent.length > 1 ? 1000 * (recent.length - 1) / (now - recent[0]) : 0,
          renderMs: s.renderMs.length ? s.renderMs[s.renderMs.length - 1] : 0,
        });
        showStats();
      }
      setInterval(sample, 250);

    """#

    /// The page's start, after ``script`` and ``streamScript`` have defined what it calls: the
    /// browser when the server has the bundle, unless the address asks for the stream.
    static let start = #"""
      if (new URLSearchParams(location.search).get('render') === 'server' && config.bundle) useServer();
      else useBrowser();

    """#
}
#endif

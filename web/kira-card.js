// <kira-card>: a Kira card on a page, drawn by Kira's own renderer (kira.wasm) in the viewer's
// browser. Drag it (or touch it) to tilt it and it springs back when let go; click, tap or press
// space to flip it; the arrow keys tilt it. The card's motion is the library's (kira.motion); the
// element only forwards input and places what the renderer draws.
//
//   <script type="module" src="kira-card.js"></script>
//   <kira-card foil="cosmos" glare="0.3"></kira-card>           the built-in sample card
//   <kira-card card="cards/dragon.kira.gz"></kira-card>           a card file (kira card writes them)
//
// Attributes: card (a card file's URL), foil, intensity, glare (kira render's words and ranges),
// tilt-limit (degrees, 1...45), projection ('css', the default: the face is shaded in
// WebAssembly and the page's compositor turns it in 3-D; 'exact': every frame is projected in
// WebAssembly, as kira render draws it), wasm (kira.wasm's URL; by default beside this file),
// worker ('off': render on the main thread). Events: load (the first frame is on screen),
// flip (detail.back: which face the card turns to), error (detail.message). Properties for
// tests and benchmarks: pose, showsBack, moving, rendering ('worker' or 'main thread'), stats.
// See docs/web.md.
import { Kira } from './kira.js';
import { parameters } from './parameters.js';

/// How far (CSS px) a press may move and still be a tap, which flips the card: farther, it is a
/// drag, which never flips it.
const tapSlop = 4;
/// The drag (CSS px) each press of an arrow key adds.
const keyStep = 8;
/// The exact projection's canvas reaches this share of the card's size beyond each side: room
/// for the card's tilts.
const exactMargin = 0.1;
const lookNames = ['foil', 'intensity', 'glare'];
const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

const style = `
:host { display: inline-block; position: relative; vertical-align: top; touch-action: none; user-select: none;
  -webkit-user-select: none; cursor: grab; outline: none; border-radius: 4%/3%;
  width: calc(var(--kira-face-width, 0) * 1px / var(--kira-pixel-ratio, 1));
  aspect-ratio: var(--kira-face-width, 5) / var(--kira-face-height, 7); }
:host([hidden]) { display: none; }
:host(:active) { cursor: grabbing; }
:host(:focus-visible) { outline: 3px solid var(--kira-focus-color, Highlight); outline-offset: 6px; }
.turn, .face, .exact { position: absolute; inset: 0; }
.face, .exact { width: 100%; height: 100%; display: block; }
.back { transform: scaleX(-1); }
.exact { inset: ${-100 * exactMargin}%; width: ${100 * (1 + 2 * exactMargin)}%; height: ${100 * (1 + 2 * exactMargin)}%; }
[hidden] { display: none !important; }
.live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

let sheet = null;
try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(style);
} catch {
    sheet = null;
}

export class KiraCard extends HTMLElement {
    static observedAttributes = ['card', 'foil', 'intensity', 'glare', 'tilt-limit', 'projection', 'wasm', 'worker'];

    #root;
    #parts = {};
    #handle = null;      // sends a message to the renderer
    #worker = null;
    #ready = false;
    #face = null;        // the card's face size, in pixels
    #box = null;         // the element's content box, in CSS px
    #look = {};
    #refused = {};       // attribute values refused, by name
    #inFlight = null;    // the frame being rendered: {id, stamps}
    #dirty = false;
    #frameId = 0;
    #pending = [];       // input timeStamps not yet in a frame
    #press = null;
    #keys = { x: 0, y: 0, held: new Set() };
    #reducedMotion = null;
    #pose = { tiltX: 0, tiltY: 0, flip: 0 };
    #back = false;
    #moving = false;
    #connectedAt = 0;
    #stats = null;

    constructor() {
        super();
        this.#root = this.attachShadow({ mode: 'open' });
        // A constructed style sheet: a Content-Security-Policy without 'unsafe-inline' in
        // style-src allows it, where it would refuse a <style> element.
        if (sheet) this.#root.adoptedStyleSheets = [sheet];
        this.#root.innerHTML = `${sheet ? '' : `<style>${style}</style>`}
<div class="turn tilt-y" part="card"><div class="turn tilt-x"><div class="turn flip">
<canvas class="face front"></canvas><canvas class="face back"></canvas></div></div></div>
<canvas class="exact" hidden></canvas><span class="live" aria-live="polite"></span>`;
        for (const name of ['tilt-y', 'tilt-x', 'flip', 'front', 'back', 'exact', 'live']) {
            this.#parts[name] = this.#root.querySelector('.' + name);
        }
        this.resetStats();
        const own = (handler) => (event) => this.#timed(() => handler.call(this, event));
        this.addEventListener('pointerdown', own(this.#down));
        this.addEventListener('pointermove', own(this.#move));
        this.addEventListener('pointerup', own(this.#up));
        this.addEventListener('pointercancel', own(this.#cancel));
        this.addEventListener('keydown', own(this.#keydown));
        this.addEventListener('keyup', own(this.#keyup));
        this.addEventListener('blur', own(this.#blur));
        this.addEventListener('contextmenu', (event) => { if (this.#press) event.preventDefault(); });
        this.#resize = new ResizeObserver(own(this.#resized));
    }

    #resize;

    connectedCallback() {
        if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
        if (!this.hasAttribute('role')) this.setAttribute('role', 'button');
        if (!this.hasAttribute('aria-roledescription')) this.setAttribute('aria-roledescription', 'card');
        if (!this.hasAttribute('aria-label')) {
            this.setAttribute('aria-label', 'Holographic card: drag or use the arrow keys to tilt it, press to flip it');
        }
        this.setAttribute('aria-pressed', String(this.#back));
        this.#connectedAt = performance.now();
        this.#resize.observe(this);
        this.#reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
        this.#reducedMotion.onchange = () => this.#motion('reducedMotion', this.#reducedMotion.matches);
        this.#connection = new AbortController();
        this.#watchPixelRatio();
        // Started once the script that connected it has set its attributes (a page that sets
        // card= after the element is defined loads one card, not the sample card first).
        queueMicrotask(() => {
            if (this.isConnected && !this.#handle) this.#start();
        });
    }

    #connection = null;

    // A window moved to a screen of another density (or zoomed): the default size follows.
    #watchPixelRatio() {
        this.style.setProperty('--kira-pixel-ratio', devicePixelRatio || 1);
        matchMedia(`(resolution: ${devicePixelRatio || 1}dppx)`).addEventListener('change', () => {
            this.#watchPixelRatio();
            this.#requestFrame();
        }, { once: true, signal: this.#connection.signal });
    }

    disconnectedCallback() {
        this.#resize.disconnect();
        if (this.#reducedMotion) this.#reducedMotion.onchange = null;
        this.#connection?.abort();
        this.#stop();
    }

    attributeChangedCallback(name, old, value) {
        if (old === value || !this.isConnected || !this.#handle) return;
        switch (name) {
        case 'wasm': case 'worker': this.#stop(); this.#start(); break;
        case 'card': this.#ready = false; this.#send({ type: 'card', card: this.#url(value) }); break;
        case 'tilt-limit': this.#motion('tiltLimit', this.#tiltLimit()); this.#requestFrame(); break;
        case 'projection': this.#requestFrame(); break;
        default: this.#readLook(); this.#requestFrame();
        }
    }

    /// The pose on screen: {tiltX, tiltY, flip} in degrees.
    get pose() { return { ...this.#pose }; }
    /// Whether the card turns to (or shows) its back.
    get showsBack() { return this.#back; }
    /// Whether a spring is still moving the card.
    get moving() { return this.#moving; }
    /// Where the frames are drawn: 'worker' or 'main thread' (null until the card is loaded).
    get rendering() { return this.#handle ? (this.#worker ? 'worker' : 'main thread') : null; }
    /// 'css' or 'exact' (the projection attribute).
    get projection() { return this.getAttribute('projection') === 'exact' ? 'exact' : 'css'; }

    /// Figures since the element started or since resetStats(): frames on screen, each input's
    /// time from its event to the first animation frame after its pose was on the canvas
    /// (latenciesMs), the main thread's time in this element's code (mainThreadMs), when the
    /// first frame was on screen (firstPaintMs: since the page's time origin; firstPaintSinceConnectMs),
    /// the renderer's time per frame (renderMs), and each frame's flip angle (flips); loadMs:
    /// {wasmMs, cardMs}, the module's load and the card's (the sample card is drawn then).
    get stats() { return structuredClone(this.#stats); }

    resetStats() {
        const first = this.#stats ?? {};
        this.#stats = { framesPainted: 0, latenciesMs: [], mainThreadMs: 0, renderMs: [], paintTimesMs: [], flips: [],
                        firstPaintMs: first.firstPaintMs ?? null, firstPaintSinceConnectMs: first.firstPaintSinceConnectMs ?? null,
                        loadMs: first.loadMs ?? null };
    }

    // The renderer: a module Worker with OffscreenCanvas where the browser has them, else the
    // same code on the main thread.
    #start() {
        this.#ready = false;
        this.#inFlight = null;
        // A new renderer knows nothing of what the canvases show.
        this.#parts.front.key = this.#parts.back.key = undefined;
        const local = async () => {
            const { cardRenderer } = await import('./kira-worker.js');
            this.#worker = null;
            this.#handle = cardRenderer((message) => this.#timed(() => this.#received(message)));
            this.#configure();
        };
        if (this.getAttribute('worker') !== 'off' && typeof Worker === 'function' && typeof OffscreenCanvas === 'function') {
            try {
                const worker = new Worker(new URL('./kira-worker.js', import.meta.url), { type: 'module' });
                worker.onmessage = (event) => this.#timed(() => this.#received(event.data));
                // A Worker that cannot start (a Content-Security-Policy without worker-src, say):
                // the main thread renders instead.
                worker.onerror = (event) => {
                    if (this.#worker !== worker || this.#ready) return;
                    event.preventDefault();
                    worker.terminate();
                    local();
                };
                this.#worker = worker;
                this.#handle = (message) => worker.postMessage(message);
                this.#configure();
                return;
            } catch {
                // Fall through to the main thread.
            }
        }
        local();
    }

    #stop() {
        this.#worker?.terminate();
        this.#worker = null;
        this.#handle = null;
        this.#ready = false;
    }

    #configure() {
        this.#handle({ type: 'init', wasm: this.#url(this.getAttribute('wasm')), card: this.#url(this.getAttribute('card')) });
        this.#readLook();
        if (this.hasAttribute('tilt-limit')) this.#motion('tiltLimit', this.#tiltLimit());
        this.#motion('reducedMotion', this.#reducedMotion?.matches ?? false);
    }

    #send(message) {
        this.#handle?.(message);
    }

    #url(value) {
        return value ? new URL(value, document.baseURI).href : undefined;
    }

    // Attributes: foil, intensity and glare are checked with kira render's own table; a value it
    // refuses is reported (an error event) and the last good one kept.
    #readLook() {
        const look = {};
        for (const name of lookNames) {
            const value = this.getAttribute(name);
            if (value === null || value === '') continue;
            try {
                Kira.check('shade', { [name]: value });
                look[name] = parameters[name].kind === 'number' ? Number(value) : value;
                delete this.#refused[name];
            } catch (error) {
                // Said once a value, not again each time another attribute changes.
                if (this.#refused[name] !== value) this.#fail(`<kira-card ${name}>: ${error.message}`);
                this.#refused[name] = value;
                if (this.#look[name] !== undefined) look[name] = this.#look[name];
            }
        }
        this.#look = look;
        this.#send({ type: 'look', look });
    }

    #tiltLimit() {
        // NaN gives the library's own limit back (an absent or unreadable attribute).
        const value = this.getAttribute('tilt-limit');
        return value === null || value.trim() === '' ? NaN : Number(value);
    }

    #fail(message) {
        this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
    }

    // Input: the time of each is its event's, in seconds, on the clock the frames use.
    #motion(kind, a = 0, b = 0, stamp = performance.now()) {
        this.#send({ type: 'motion', kind, a, b, time: stamp / 1000 });
    }

    #input(kind, a, b, stamp) {
        this.#motion(kind, a, b, stamp);
        this.#pending.push(stamp);
        this.#requestFrame();
    }

    #down(event) {
        if (event.pointerType === 'mouse' && event.button !== 0) return;
        this.#press = { id: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
        try {
            this.setPointerCapture(event.pointerId);
        } catch {
            // A pointer the browser does not track (a script's event): no capture needed.
        }
        // The press focuses the card as a click does (no focus ring: :focus-visible is for the
        // keyboard); touch-action and user-select keep it from scrolling or selecting.
    }

    #move(event) {
        const press = this.#press;
        if (!press || event.pointerId !== press.id) return;
        const dx = event.clientX - press.x, dy = event.clientY - press.y;
        if (!press.moved && Math.hypot(dx, dy) < tapSlop) return;
        press.moved = true;
        this.#input('drag', dx, dy, event.timeStamp);
    }

    #up(event) {
        const press = this.#press;
        if (!press || event.pointerId !== press.id) return;
        this.#press = null;
        this.#input(press.moved ? 'release' : 'flip', 0, 0, event.timeStamp);
    }

    #cancel(event) {
        const press = this.#press;
        if (!press || event.pointerId !== press.id) return;
        this.#press = null;
        if (press.moved) this.#input('release', 0, 0, event.timeStamp);
    }

    #keydown(event) {
        if (event.key === ' ' || event.key === 'Enter') {
            event.preventDefault();
            if (!event.repeat) this.#input('flip', 0, 0, event.timeStamp);
            return;
        }
        const step = arrows[event.key];
        if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
        event.preventDefault();
        const keys = this.#keys;
        keys.held.add(event.key);
        keys.x += keyStep * step[0];
        keys.y += keyStep * step[1];
        this.#input('drag', keys.x, keys.y, event.timeStamp);
    }

    #keyup(event) {
        const keys = this.#keys;
        if (!keys.held.delete(event.key) || keys.held.size) return;
        keys.x = keys.y = 0;
        this.#input('release', 0, 0, event.timeStamp);
    }

    #blur(event) {
        if (!this.#keys.held.size) return;
        this.#keys.held.clear();
        this.#keys.x = this.#keys.y = 0;
        this.#input('release', 0, 0, event.timeStamp);
    }

    #resized(entries) {
        const box = entries[entries.length - 1].contentBoxSize[0];
        this.#box = { width: box.inlineSize, height: box.blockSize };
        this.#requestFrame();
    }


    // Frames: one at a time. Input asks for one at once (its latency is the render's), a moving
    // spring once an animation frame.
    #requestFrame() {
        if (!this.#ready || !this.#box || this.#box.width < 1) return;
        if (this.#inFlight) {
            this.#dirty = true;
            return;
        }
        this.#dirty = false;
        const message = { type: 'frame', id: ++this.#frameId, time: performance.now() / 1000, projection: this.projection };
        if (message.projection === 'exact') {
            const ratio = devicePixelRatio || 1, { width, height } = this.#box;
            const side = (length) => Math.max(1, Math.round(length * (1 + 2 * exactMargin) * ratio));
            message.size = `${side(width)}x${side(height)}`;
            message.scale = width * ratio / this.#face.width;
        }
        message.shown = { front: this.#parts.front.key, back: this.#parts.back.key };
        this.#inFlight = { id: message.id, stamps: this.#pending };
        this.#pending = [];
        this.#send(message);
    }

    #received(message) {
        switch (message.type) {
        case 'ready': {
            this.#face = message.face;
            this.#stats.loadMs ??= message.timings;
            this.style.setProperty('--kira-face-width', message.face.width);
            this.style.setProperty('--kira-face-height', message.face.height);
            this.#ready = true;
            this.#inFlight = null;
            this.#requestFrame();
            break;
        }
        case 'frame':
            if (this.#inFlight?.id !== message.id) return;
            this.#paint(message);
            break;
        case 'error':
            if (message.during === 'frame' && this.#inFlight?.id === message.id) this.#inFlight = null;
            this.#fail(message.message);
            break;
        }
    }

    #paint(message) {
        const { stamps } = this.#inFlight;
        this.#inFlight = null;
        const parts = this.#parts, pose = message.pose;
        for (const layer of message.layers) {
            const canvas = parts[layer.side], source = layer.bitmap ?? layer.image;
            if (layer.side !== 'exact') canvas.style.opacity = layer.opacity;
            if (!source) continue;
            canvas.key = layer.key;
            if (canvas.width !== source.width || canvas.height !== source.height) {
                canvas.width = source.width;
                canvas.height = source.height;
            }
            if (layer.bitmap) {
                (canvas.bitmapContext ??= canvas.getContext('bitmaprenderer')).transferFromImageBitmap(layer.bitmap);
            } else {
                (canvas.imageContext ??= canvas.getContext('2d')).putImageData(layer.image, 0, 0);
            }
        }
        // The projection this frame was drawn for shows (the other one stays until then).
        const exact = message.layers[0]?.side === 'exact';
        parts.exact.hidden = !exact;
        parts['tilt-y'].hidden = exact;
        if (!exact) {
            for (const side of ['front', 'back']) {
                if (!message.layers.some((l) => l.side === side)) parts[side].style.opacity = 0;
            }
            // SwiftUI's rotation3DEffect, as the compositor draws it: the flip, then the tilt about
            // x, then about y, each flattened before the next (nested elements with flat
            // transforms), each with its eye at the card's larger side over its perspective.
            const side = Math.max(this.#box.width, this.#box.height);
            const eye = (perspective) => perspective > 0 ? `perspective(${side / perspective}px) ` : '';
            const tiltEye = eye(parameters.tiltPerspective.default), flipEye = eye(parameters.perspective.default);
            parts.flip.style.transform = `${flipEye}rotateY(${pose.flip}deg)`;
            parts['tilt-x'].style.transform = `${tiltEye}rotateX(${pose.tiltX}deg)`;
            parts['tilt-y'].style.transform = `${tiltEye}rotateY(${pose.tiltY}deg)`;
        }
        this.#pose = pose;
        this.#moving = message.moving;
        if (message.back !== this.#back) {
            this.#back = message.back;
            this.setAttribute('aria-pressed', String(message.back));
            parts.live.textContent = message.back ? 'Showing the back' : 'Showing the front';
            this.dispatchEvent(new CustomEvent('flip', { detail: { back: message.back } }));
        }
        const stats = this.#stats;
        stats.renderMs.push(message.renderMs);
        // Without a Worker the render is the main thread's too.
        if (!this.#worker) stats.mainThreadMs += message.renderMs;
        if (stats.renderMs.length > 1000) stats.renderMs.shift();
        // On screen at the first animation frame after this.
        requestAnimationFrame(() => this.#timed(() => {
            const now = performance.now();
            stats.framesPainted++;
            stats.paintTimesMs.push(now);
            stats.flips.push(pose.flip);
            if (stats.paintTimesMs.length > 1000) {
                stats.paintTimesMs.shift();
                stats.flips.shift();
            }
            for (const stamp of stamps) stats.latenciesMs.push(now - stamp);
            if (stats.latenciesMs.length > 1000) stats.latenciesMs.splice(0, stats.latenciesMs.length - 1000);
            if (stats.firstPaintMs === null) {
                stats.firstPaintMs = now;
                stats.firstPaintSinceConnectMs = now - this.#connectedAt;
                this.dispatchEvent(new Event('load'));
            }
        }));
        if (this.#dirty) this.#requestFrame();
        else if (message.moving) requestAnimationFrame(() => this.#timed(() => this.#requestFrame()));
    }

    #timed(work) {
        const start = performance.now();
        try {
            return work();
        } finally {
            this.#stats.mainThreadMs += performance.now() - start;
        }
    }
}

if (!customElements.get('kira-card')) customElements.define('kira-card', KiraCard);

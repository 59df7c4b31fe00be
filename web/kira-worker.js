// Where <kira-card> renders: kira.wasm's shader, projection and card motion behind messages.
// Started as a module Worker (kira-card.js does, when the browser has Workers and
// OffscreenCanvas), it answers frames with ImageBitmaps, so the page's main thread only places
// them; imported on the main thread (the fallback), it answers with ImageData.
//
// Messages in (times are seconds on the page's clock, performance.now() / 1000):
//   {type: 'init', wasm, card}            load kira.wasm, then the card file (none: the sample card)
//   {type: 'card', card}                  use another card file (null: the sample card)
//   {type: 'look', look}                  foil, intensity, glare (kira.shade's names)
//   {type: 'motion', kind, a, b, time}    kira.motion: drag (a, b = dx, dy), release, flip,
//                                         tiltLimit (a), reducedMotion (a)
//   {type: 'frame', id, time, projection, size, scale, shown: {front, back}}
//                                         the card at `time`: 'css' shades each face that shows
//                                         (the page's compositor turns it), 'exact' renders the
//                                         frame as kira render does on a `size` canvas; `shown`:
//                                         the keys of the faces the page shows, not drawn again
// Messages out:
//   {type: 'ready', face: {width, height}, timings: {wasmMs, cardMs}}   (loading, the card's first shade)
//   {type: 'frame', id, pose, moving, back, layers: [{side, opacity, key, bitmap | image}], renderMs}
//                                         (a layer without an image: the page's is still right)
//   {type: 'error', during, id, message}
import { Kira } from './kira.js';

/// A message handler around one Kira module; `reply(message, transfer)` answers.
export function cardRenderer(reply) {
    let kira = null, look = {}, card = 0;
    const canvases = {};
    const bitmaps = typeof OffscreenCanvas === 'function' && typeof WorkerGlobalScope === 'function'
        && globalThis instanceof WorkerGlobalScope;

    // One rendered image out: an ImageBitmap from a Worker (moved, not copied, to the page), or
    // else an ImageData of its own (the module's next image reuses the memory of this one).
    function layer(side, opacity, view) {
        if (!bitmaps) return { side, opacity, image: new ImageData(view.data.slice(), view.width, view.height) };
        const image = new ImageData(view.data, view.width, view.height);
        let canvas = canvases[side];
        if (!canvas || canvas.width !== view.width || canvas.height !== view.height) {
            canvas = canvases[side] = new OffscreenCanvas(view.width, view.height);
            canvas.context = canvas.getContext('2d');
        }
        canvas.context.putImageData(image, 0, 0);
        return { side, opacity, bitmap: canvas.transferToImageBitmap() };
    }

    async function loadCard(file, timings = {}) {
        const start = performance.now();
        if (file) await kira.loadCard(file);
        else kira.useSampleCard();
        card++;
        // The first shade draws the sample card.
        const face = kira.shadeView(look);
        reply({ type: 'ready', face: { width: face.width, height: face.height }, timings: { ...timings, cardMs: performance.now() - start } });
    }

    function frame(m) {
        const start = performance.now();
        const motion = kira.motion;
        const pose = motion.pose(m.time);
        const layers = [];
        if (m.projection === 'exact') {
            const view = kira.renderView({ ...look, ...pose, crossfade: true, size: m.size, scale: m.scale });
            layers.push(layer('exact', 1, view));
        } else {
            // The faces as the card's crossfade shows them (the front fades out as the flip goes
            // from 0 to 180 degrees, the back in over it): each shaded only while it shows.
            // A face the page already shows at these tilts and this look (a flip at rest, say) is
            // not shaded again: only its opacity goes.
            const back = Math.min(Math.max(pose.flip / 180, 0), 1);
            const key = JSON.stringify([card, look, pose.tiltX, pose.tiltY]);
            for (const [side, opacity] of [['front', 1 - back], ['back', back]]) {
                if (opacity <= 0) continue;
                if (m.shown?.[side] === key) {
                    layers.push({ side, opacity, key });
                } else {
                    const view = kira.shadeView({ ...look, tiltX: pose.tiltX, tiltY: pose.tiltY, back: side === 'back' });
                    layers.push({ ...layer(side, opacity, view), key });
                }
            }
        }
        const message = { type: 'frame', id: m.id, pose, moving: motion.isMoving(m.time), back: motion.showsBack(), layers,
                          renderMs: performance.now() - start };
        reply(message, layers.filter((l) => l.bitmap).map((l) => l.bitmap));
    }

    async function handle(m) {
        try {
            switch (m.type) {
            case 'init': {
                const start = performance.now();
                kira = await Kira.load({ wasm: m.wasm });
                const timings = { wasmMs: performance.now() - start };
                try {
                    await loadCard(m.card, timings);
                } catch (error) {
                    // The sample card, and the page is told why its card is not shown.
                    reply({ type: 'error', during: 'card', message: error.message ?? String(error) });
                    await loadCard(null, timings);
                }
                break;
            }
            case 'card': await loadCard(m.card); break;
            case 'look': look = m.look; break;
            case 'motion': {
                const motion = kira.motion;
                switch (m.kind) {
                case 'drag': motion.drag(m.a, m.b); break;
                case 'release': motion.release(m.time); break;
                case 'flip': motion.flip(m.time); break;
                case 'tiltLimit': motion.tiltLimit(m.a); break;
                case 'reducedMotion': motion.reducedMotion(m.a); break;
                default: throw new Error(`no motion ${m.kind}`);
                }
                break;
            }
            case 'frame': frame(m); break;
            default: throw new Error(`no message ${m.type}`);
            }
        } catch (error) {
            reply({ type: 'error', during: m.type, id: m.id, message: error.message ?? String(error) });
        }
    }

    // One message at a time, in order (loading awaits).
    let chain = Promise.resolve();
    return (message) => { chain = chain.then(() => handle(message)); };
}

if (typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope) {
    const handle = cardRenderer((message, transfer = []) => postMessage(message, transfer));
    addEventListener('message', (event) => handle(event.data));
}

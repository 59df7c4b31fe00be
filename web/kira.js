// Kira's renderer in the browser: the same code as `kira shade` and `kira render`, compiled to
// WebAssembly (kira.wasm, scripts/build-web), so a page draws the same bytes those commands write.
//
//   import { Kira } from './kira.js';
//   const kira = await Kira.load();                         // the built-in sample card
//   const face = kira.shade({ tiltX: -8, tiltY: 10 });       // { width, height, data }
//   const frame = kira.render({ tiltX: 8, tiltY: -14, size: '1000x1300' });
//
// Values take kira render's parameter names in camel case (tilt_x is tiltX), with its ranges and
// defaults (parameters.js, generated from the library's table). Images are RGBA bytes with
// straight alpha, rows top to bottom, as a Uint8ClampedArray (`new ImageData(data, width)` shows
// one on a canvas). No dependencies; runs in a page, a Worker, or Node.
import { parameters, renderNames, shadeNames } from './parameters.js';

/// Why a call made no image: one line that says what is valid.
export class KiraError extends Error {
    constructor(message) {
        super(message);
        this.name = 'KiraError';
    }
}

const axisCodes = { y: 0, x: 1, xy: 2 };

export class Kira {
    #exports;
    #memory;

    constructor(instance) {
        this.#exports = instance.exports;
        this.#memory = instance.exports.memory;
    }

    /// Loads the module. `wasm`: where kira.wasm is (a URL, or its bytes); by default beside this
    /// file. `card`: a card file (a URL, a Response or its bytes) to use instead of the sample card.
    static async load({ wasm = new URL('kira.wasm', import.meta.url), card } = {}) {
        // wasi-libc keeps three WASI calls for stdout, which Kira never writes to.
        const unsupported = () => 52;
        const imports = { wasi_snapshot_preview1: { fd_write: unsupported, fd_seek: unsupported, fd_close: unsupported } };
        let instance;
        if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) {
            ({ instance } = await WebAssembly.instantiate(wasm, imports));
        } else if (typeof process === 'object' && process.versions?.node) {
            // Node: a path or a file: URL.
            const { readFile } = await import('node:fs/promises');
            ({ instance } = await WebAssembly.instantiate(await readFile(wasm), imports));
        } else {
            try {
                ({ instance } = await WebAssembly.instantiateStreaming(fetch(wasm), imports));
            } catch (error) {
                // A server that sends kira.wasm with another type than application/wasm.
                if (!(error instanceof TypeError)) throw error;
                const response = await fetch(wasm);
                if (!response.ok) throw new KiraError(`kira.wasm: HTTP ${response.status} from ${wasm}`);
                ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports));
            }
        }
        const kira = new Kira(instance);
        if (card !== undefined) await kira.loadCard(card);
        return kira;
    }

    /// The options of `call` ('shade' or 'render') checked against kira render's table and
    /// filled in with its defaults, without the module (a page can check a value before it
    /// reaches a Worker): throws a KiraError that says what is valid.
    static check(call, options = {}) {
        if (call !== 'shade' && call !== 'render') throw new KiraError(`Kira.check: call must be 'shade' or 'render', not ${JSON.stringify(call)}`);
        return values(call, options, call === 'shade' ? shadeNames : renderNames);
    }

    /// Uses the card of a card file (what `kira card` writes, or `kira serve` at
    /// /v1/cards/NAME/card.kira): a URL, a Response, or the file's bytes (gzip-compressed, as
    /// written, or not).
    async loadCard(card) {
        let bytes;
        if (card instanceof Response) bytes = await card.arrayBuffer();
        else if (card instanceof ArrayBuffer || ArrayBuffer.isView(card)) bytes = card;
        else {
            const response = await fetch(card);
            if (!response.ok) throw new KiraError(`the card file ${card}: HTTP ${response.status}`);
            bytes = await response.arrayBuffer();
        }
        bytes = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
        if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
            const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
            bytes = new Uint8Array(await new Response(stream).arrayBuffer());
        }
        const pointer = this.#exports.kira_card_buffer(bytes.length);
        if (!pointer) throw new KiraError('the card file is empty');
        new Uint8Array(this.#memory.buffer, pointer, bytes.length).set(bytes);
        this.#check(this.#exports.kira_card_load(bytes.length));
    }

    /// Uses the built-in sample card (the card until a file is loaded).
    useSampleCard() {
        this.#check(this.#exports.kira_sample_card());
    }

    /// The flat face with the shine, as `kira shade` writes it: { width, height, data }.
    /// Takes tiltX, tiltY, back (the back face), foil, intensity, glare.
    shade(options = {}) {
        return this.#copy(this.shadeView(options));
    }

    /// The card on screen, as `kira render` writes it: { width, height, data }. Takes tiltX,
    /// tiltY, flip, axis, perspective, tiltPerspective, crossfade, size ('800x1000': the canvas),
    /// background ('#RRGGBB' or 'transparent'), scale, fit, foil, intensity, glare.
    render(options = {}) {
        return this.#copy(this.renderView(options));
    }

    /// `shade`, its pixels a view of the module's memory: no copy, valid until the next call.
    shadeView(options = {}) {
        const v = values('shade', options, shadeNames);
        this.#check(this.#exports.kira_shade(v.tiltX, v.tiltY, v.back ? 1 : 0, v.foil, v.intensity, v.glare));
        return this.#view();
    }

    /// `render`, its pixels a view of the module's memory: no copy, valid until the next call.
    renderView(options = {}) {
        const v = values('render', options, renderNames);
        if (v.fit && v.scale !== null) throw new KiraError('kira.render: give either scale or fit, not both');
        if (v.fit && v.size === null) throw new KiraError('kira.render: fit needs size (the default canvas already fits the card)');
        const [width, height] = v.size ?? [0, 0];
        this.#check(this.#exports.kira_render(
            v.tiltX, v.tiltY, v.flip, axisCodes[v.axis], v.perspective, v.tiltPerspective, v.crossfade ? 1 : 0,
            width, height, v.scale ?? NaN, v.fit ? 1 : 0, v.background, v.foil, v.intensity, v.glare));
        return this.#view();
    }

    /// The card in the hand, with the seed's drag mapping, clamp and springs (the same model as
    /// `kira serve`'s live preview): feed it input stamped with one clock in seconds, and ask for
    /// the pose at any time. The pose's faces crossfade by flip angle (render with crossfade).
    get motion() {
        const e = this.#exports, memory = this.#memory;
        return {
            drag: (dx, dy) => e.kira_motion_drag(dx, dy),
            orient: (beta, gamma) => e.kira_motion_orient(beta, gamma),
            release: (time) => e.kira_motion_release(time),
            flip: (time) => e.kira_motion_flip(time),
            tiltLimit: (degrees) => e.kira_motion_tilt_limit(degrees),
            reducedMotion: (on) => e.kira_motion_reduced(on ? 1 : 0),
            isMoving: (time) => e.kira_motion_moving(time) !== 0,
            showsBack: () => e.kira_motion_shows_back() !== 0,
            pose: (time) => {
                const [tiltX, tiltY, flip] = new Float64Array(memory.buffer, e.kira_motion_pose(time), 3);
                return { tiltX, tiltY, flip };
            },
        };
    }

    #view() {
        const e = this.#exports;
        const width = e.kira_image_width(), height = e.kira_image_height();
        return { width, height, data: new Uint8ClampedArray(this.#memory.buffer, e.kira_image(), width * height * 4) };
    }

    #copy(view) {
        return { width: view.width, height: view.height, data: view.data.slice() };
    }

    #check(status) {
        if (status === 0) return;
        const e = this.#exports;
        const message = new Uint8Array(this.#memory.buffer, e.kira_message(), e.kira_message_length());
        throw new KiraError(new TextDecoder().decode(message));
    }
}

/// The call's options checked against the table and filled in with its defaults, as the
/// module's functions take them: foils by their place, colours as 0xRRGGBB (-1 transparent),
/// sizes as [width, height].
function values(call, options, names) {
    const known = new Set(names);
    for (const key of Object.keys(options)) {
        if (!known.has(key)) throw new KiraError(`kira.${call}: no value ${key}; it takes ${names.join(', ')}`);
    }
    const result = {};
    for (const key of names) {
        const entry = parameters[key];
        const given = options[key];
        result[key] = read(call, key, entry, given === undefined || given === null ? entry.default : given);
    }
    return result;
}

function read(call, key, entry, value) {
    const fail = (what) => new KiraError(`kira.${call}: ${key} must be ${what}, not ${JSON.stringify(value)}`);
    switch (entry.kind) {
    case 'number': {
        if (value === null) return null;
        const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
        if (typeof number !== 'number' || !Number.isFinite(number) || number < entry.min || number > entry.max) {
            throw fail(`a number from ${entry.min} to ${entry.max}`);
        }
        return number;
    }
    case 'flag':
        if (typeof value !== 'boolean') throw fail('true or false');
        return value;
    case 'choice': {
        const index = entry.words.indexOf(value);
        if (index < 0) throw fail(`one of ${entry.words.join(', ')}`);
        return key === 'foil' ? index : value;
    }
    case 'size': {
        if (value === null) return null;
        const match = /^(\d+)x(\d+)$/.exec(String(value));
        const size = match && [Number(match[1]), Number(match[2])];
        if (!size || size.some((side) => side < 1 || side > entry.max)) {
            throw fail(`WIDTHxHEIGHT with each side 1...${entry.max}, e.g. 800x1000`);
        }
        return size;
    }
    case 'color': {
        if (String(value).toLowerCase() === 'transparent') return -1;
        const match = /^#?([0-9a-fA-F]{6})$/.exec(String(value));
        if (!match) throw fail('#RRGGBB (six hex digits, e.g. #1b1f2a) or transparent');
        return parseInt(match[1], 16);
    }
    default:
        throw new KiraError(`kira.${call}: ${key} has no reader`);
    }
}

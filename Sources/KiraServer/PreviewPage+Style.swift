#if Server
extension PreviewPage {
    /// The page's one stylesheet: the card above the controls on a phone, beside them from
    /// 760 px; no framework, nothing fetched.
    static let style = #"""
    :root { color-scheme: light dark; font: 15px/1.4 system-ui, sans-serif; --line: #8886; --muted: #888; --accent: #7a5cff; }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body { margin: 0; padding: 12px; display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); max-width: 1200px; margin-inline: auto; }
    header h1 { margin: 0; font-size: 1.25rem; font-weight: 600; }
    header p { margin: 2px 0 0; color: var(--muted); font-size: 0.9rem; }
    #stage { position: relative; touch-action: none; user-select: none; min-width: 0; justify-self: center; }
    #card { display: block; max-width: 100%; max-height: 80vh; width: auto; height: auto; cursor: grab; outline-offset: 4px; background: #fff; border-radius: 6px; }
    #card:active { cursor: grabbing; }
    /* The element turns the card in 3-D beyond its box: the margin is room for the tilts and the
       flip's near edge, as the stream's canvas has room for them around the card. */
    #stage > kira-card { display: block; max-width: 100%; margin: 2.5rem auto; }
    /* The element's width is a length, not a canvas's pixels: a centred stage as wide as it would
       overflow a phone's column, where a stretched one gives max-width a column to follow. */
    body[data-mode=browser] #stage { justify-self: stretch; }
    #status { position: absolute; left: 8px; top: 8px; right: 8px; padding: 4px 8px; border-radius: 4px; background: #b00020; color: #fff; z-index: 1; }
    #panel { display: grid; gap: 10px; align-content: start; min-width: 0; }
    fieldset { margin: 0; padding: 8px 10px 10px; border: 1px solid var(--line); border-radius: 8px; display: grid; gap: 8px; min-width: 0; }
    legend { padding: 0 4px; color: var(--muted); font-size: 0.85rem; }
    .control { display: grid; grid-template-columns: 8.5em minmax(0, 1fr) 3.5em; gap: 8px; align-items: center; min-height: 32px; }
    .control > :only-child { grid-column: 2 / 4; }
    .control output { text-align: right; font-variant-numeric: tabular-nums; }
    .control:has(:disabled) { color: var(--muted); }
    input, select, button { font: inherit; min-width: 0; width: 100%; min-height: 32px; }
    input[type=range] { accent-color: var(--accent); }
    .pills { display: flex; flex-wrap: wrap; gap: 6px; }
    .pills label { flex: 1 0 5.5em; position: relative; }
    .pills input { position: absolute; opacity: 0; inset: 0; margin: 0; min-height: 0; }
    .pills span { display: block; text-align: center; padding: 5px 6px; border: 1px solid var(--line); border-radius: 16px; cursor: pointer; }
    .pills input:checked + span { background: var(--accent); border-color: var(--accent); color: #fff; }
    .pills input:focus-visible + span { outline: 2px solid var(--accent); outline-offset: 2px; }
    .pills input:disabled + span { cursor: not-allowed; opacity: 0.5; }
    #fallback { margin: 0; font-size: 0.9rem; }
    /* The download link and the command describe a frame of the server's: not the browser's. */
    body[data-mode=browser] .stream-only { display: none; }
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
      /* As the canvas, the card fits the window's height: its margins above and below included. */
      #stage > kira-card { max-width: min(100%, calc((100vh - 190px) * var(--kira-face-width, 5) / var(--kira-face-height, 7))); }
    }

    """#
}
#endif

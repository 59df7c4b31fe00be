#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The live preview's page, `GET /`: HTML, CSS and JavaScript in one document, kept in the
/// binary (nothing to install beside `kira`, nothing fetched from elsewhere, so its server stream
/// works offline).
///
/// The card is drawn in one of two ways, and a switch on the page picks one:
/// - **in the browser**, by `<kira-card>` from the server's browser bundle (`--web`), from the
///   card's file: the server renders nothing while the card moves. The default when the
///   configuration names a bundle and the browser can load it.
/// - **the server stream**: the page only forwards input and paints frames. Pointer offsets,
///   presses, releases, flips and control changes go to `/live` as JSON; the server computes
///   every pose (the seed's drag mapping and springs, ``/KiraAnimation/InteractiveCard``) and
///   sends frames back. Without a bundle, or when it fails to load, the page uses it and says why.
///
/// Its controls are made from the configuration the server writes into it
/// (``PreviewConfiguration``: the request parameters' own ranges and words, the bundle's paths).
/// `window.kiraPreviewStats` holds the figures a test or a benchmark reads.
///
/// The document is kept in parts by concern: the markup here, the stylesheet
/// (``style``), the controls and the mode switch (``script``), the stream (``streamScript``).
enum PreviewPage {
    /// The page with `configuration` (JSON) written into it.
    static func html(configuration: String) -> String {
        // A JSON string cannot end the script element early once "</" is written "<\/".
        head + "<style>\n" + style + "</style>\n" + body + "<script>\nconst config = "
            + configuration.replacing("</", with: "<\\/")
            + ";\n(() => {\n" + script + streamScript + start + "})();\n</script>\n</body>\n</html>\n"
    }

    private static let head = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Kira live preview</title>

    """#

    /// The stage (the stream's canvas; `<kira-card>` joins it in the browser mode) and the panel
    /// the script fills with controls.
    private static let body = #"""
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
      <fieldset id="rendering"><legend>Rendered</legend>
        <div id="modes" class="pills" role="radiogroup" aria-label="Where the card is rendered">
          <label><input type="radio" name="render" value="browser"><span>in your browser</span></label>
          <label><input type="radio" name="render" value="server"><span>server stream</span></label>
        </div>
        <p id="fallback" role="status" hidden></p>
        <div id="stats" aria-live="off"></div>
      </fieldset>
      <fieldset id="look"><legend>Foil</legend><div id="foils" class="pills" role="radiogroup" aria-label="Foil"></div></fieldset>
      <fieldset id="params"><legend>Look</legend></fieldset>
      <fieldset id="view"><legend>View</legend>
        <label class="control">Card <select id="c-card"></select></label>
      </fieldset>
      <button id="orient" class="stream-only" type="button" hidden>Tilt with this device</button>
      <div class="actions stream-only"><a id="download" href="#" download="card.png">Download this frame (PNG)</a><button id="copy" type="button">Copy the command</button></div>
      <code id="command" class="stream-only"></code>
    </div>

    """#
}
#endif

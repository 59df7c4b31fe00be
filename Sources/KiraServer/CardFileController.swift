#if Server
import Hummingbird

/// `GET /v1/cards/{id}/card.kira`: the card file the browser's Kira renders the card from
/// (docs/web.md). Served with the live preview, which renders from it: a card's art is what its
/// frames show anyway, but a server that signs its URLs shows it only to the preview's users.
struct CardFileController<Context: RequestContext> {
    let service: FrameService

    static var path: String { "/v1/cards/:id/card.kira" }

    func addRoutes(to router: Router<Context>) {
        router.get(RouterPath(Self.path)) { request, context in
            let answer = try await service.cardFile(id: context.parameters.get("id") ?? "", ifNoneMatch: request.headers[.ifNoneMatch])
            // A card's files may change when the server restarts with new ones: caches ask again
            // after an hour, and the ETag (the card's content) answers 304 when nothing changed.
            let cacheControl = "public, max-age=3600"
            switch answer {
            case .notModified(let etag):
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cacheControl])
            case .frame(let file, let etag, let source):
                let headers: HTTPFields = [
                    .contentType: "application/octet-stream", .eTag: etag, .cacheControl: cacheControl,
                    RequestLogMiddleware<Context>.cacheHeader: source.rawValue,
                ]
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file))
            }
        }
    }
}
#endif

#if Server
import Hummingbird
import KiraFormats
import KiraServerAPI

/// `GET /v1/cards/{id}/render.png?tilt_x=…` (and `render.webp`, `render.jpg`): maps the HTTP request onto ``FrameService`` and its
/// answer onto a response; nothing else.
struct RenderController<Context: RequestContext> {
    let service: FrameService

    func addRoutes(to router: Router<Context>) {
        for format in RenderRoute.formats {
            router.get(RouterPath("/v1/cards/:id/" + RenderRoute.fileName(format))) { request, context in
                try await render(request, format: format, context: context)
            }
        }
    }

    /// Frames never change for a URL: any cache may keep them for a year without asking again.
    static var cacheControl: String { "public, max-age=31536000, immutable" }

    func render(_ request: Request, format: StillFormat, context: Context) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        let answer = try await service.answer(id: id, format: format, rawQuery: request.uri.query ?? "",
                                              ifNoneMatch: request.headers[.ifNoneMatch])
        switch answer {
        case .notModified(let etag):
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: Self.cacheControl])
        case .frame(let frame, let etag, let source):
            let headers: HTTPFields = [
                .contentType: RenderRoute.mediaType(format), .eTag: etag, .cacheControl: Self.cacheControl,
                RequestLogMiddleware<Context>.cacheHeader: source.rawValue,
            ]
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: frame))
        }
    }
}
#endif

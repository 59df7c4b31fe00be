import Foundation
import KiraAnimation
import KiraRequest
import KiraTestSupport
import Testing

/// A drag sets an animation's length: it obeys the duration's limits and is refused before
/// anything is sized by it, in one line (KiraCLITests runs one such drag through `kira animate`).
@Suite struct DragLengthTests {
    @Test(arguments: ["0,0,0\n1e308,1,1\n", "0,0,0\n1e17,1,1\n", "0,0,0\n1e7,1,1\n", "0,0,0\n36000,1,1\n",
                      "0,0,0\n1\u{0},1,1\n", "-5,0,0\n-4,1,1\n"])
    func dragsOutsideTheLimitsAreRefused(drag: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/drag.csv"
        try Data(drag.utf8).write(to: URL(fileURLWithPath: path))
        var request = AnimationRequest(preset: .seed003Tilt)
        request.drag = path
        do {
            _ = try request.timing(drag: try request.loadDrag())
            Issue.record("\(drag.debugDescription) was taken")
        } catch {
            let message = "\(error)"
            #expect(!message.isEmpty && !message.contains("\n"), "\(message)")
        }
    }
}

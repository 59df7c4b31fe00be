import ArgumentParser
import KiraArguments

/// A size typed as `WxH`, e.g. `630x880`, for the options that are not a request's (a
/// benchmark's frame, the sample card's textures).
struct SizeArgument: ExpressibleByArgument {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        guard let size = ArgumentValues.size(argument) else { return nil }
        (width, height) = size
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

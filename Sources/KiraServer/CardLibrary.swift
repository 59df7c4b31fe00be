import KiraPNG
#if Server
import Foundation
import KiraFiles
import KiraImage
import KiraRequest
import KiraServerAPI
import KiraTextureCache

/// The cards a server serves, by id, decoded once at start-up.
///
/// The built-in sample card is always there as `sample`. A cards folder adds one card per
/// sub-folder, named after it: `art.png` (required), and optionally a file for each other file
/// parameter of ``RenderRequest/parameters``, named after it (`mask.png`, `back.png`,
/// `back_mask.png`, `foil_map.png`); what is missing takes `kira render`'s default. Each distinct file is decoded once through the texture cache
/// `kira batch` uses. A folder that cannot be served as a card (a corrupt PNG, a stray `.png`, an
/// id a URL cannot carry as it is) stops the start-up with one line naming it, so that a typo
/// never leaves a card missing unnoticed. Requests look ids up in this table only: an id is never
/// part of a path on disk.
public struct CardLibrary: Sendable {
    /// A card as served: its faces and a hash of everything they were made from.
    public struct Card: Sendable {
        public let id: String
        public let faces: LoadedCard
        /// SHA-256 over the files' roles and contents (part of the ETag).
        public let contentHash: String
        /// The card's files by role (`art`, `mask`…), as read at start-up; none for the sample card.
        public internal(set) var files: [(role: String, path: String)] = []
    }

    /// The id of the built-in card.
    public static let sampleID = "sample"
    /// The file of each role in a card folder: every file parameter of a render request, as a PNG
    /// named after it, so a file a request learns to take is a card file too.
    public static var fileNames: [(role: String, file: String)] {
        RenderRequest.parameters.filter { $0.kind == .path }.map { ($0.name, $0.name + ".png") }
    }

    public private(set) var cards: [String: Card]

    /// The decoded textures' bytes, counted once per distinct image.
    public let textureBytes: Int

    /// The card with this id, if the library has one.
    public subscript(id: String) -> Card? { cards[id] }

    /// The built-in card's faces, drawn once for every server a process builds (the tests build many).
    private static let sample = try! CardTextures().load { _, _ in fatalError("the sample card reads no file") }

    /// The sample card, and the cards of `directory` if given; textures beyond `textureBudget`
    /// bytes refuse the start-up.
    public static func load(directory: String?, textureBudget: Int) throws(ServerSetupError) -> CardLibrary {
        var cards = [sampleID: Card(id: sampleID, faces: sample, contentHash: "built-in sample card")]
        let cache = TextureCache(budget: textureBudget)
        if let directory {
            var folders: [(id: String, files: CardTextures)] = []
            for id in try cardFolders(in: directory) { folders.append((id, try cardFiles(id: id, folder: directory + "/" + id))) }
            try checkDecoding(folders, textureBudget: textureBudget)
            for (id, files) in folders {
                cards[id] = try loadCard(id: id, files: files, cache: cache)
            }
        }
        let library = CardLibrary(cards: cards, textureBytes: distinctBytes(cards.values.map(\.faces)))
        guard library.textureBytes <= textureBudget else { throw overBudget(library.textureBytes, textureBudget: textureBudget, what: "take") }
        return library
    }

    /// Refuses, from the PNG headers and before anything is decoded, cards whose textures would
    /// not fit `textureBudget`: card by card, each with the images made from its files (a mask
    /// from the art's alpha, a plain back: ``/KiraRequest/CardTextures/estimatedBytes(counted:)``)
    /// beside the sample card's, so that a refused start-up never decodes what it refuses: the
    /// files' own sizes alone left out the masks and backs made from them, and an art that did not
    /// fit was decoded before it was refused (an 8192² art against --max-memory 600M peaked at
    /// 808 MiB, now 41 MiB; release build, 2-core Zen 4).
    static func checkDecoding(_ folders: [(id: String, files: CardTextures)], textureBudget: Int) throws(ServerSetupError) {
        var counted = Set<String>()
        var estimate = distinctBytes([sample])
        for (id, files) in folders {
            do {
                estimate = MemoryBudget.sum(estimate, try files.estimatedBytes(counted: &counted))
            } catch {
                throw ServerSetupError(error.description)
            }
            guard estimate <= textureBudget else {
                throw overBudget(estimate, textureBudget: textureBudget, what: "would need about",
                                 upTo: folders.count > 1 ? id : nil)
            }
        }
    }

    /// `upTo`: the card at which the textures went over, with those before it.
    static func overBudget(_ bytes: Int, textureBudget: Int, what: String, upTo card: String? = nil) -> ServerSetupError {
        ServerSetupError("the cards' textures \(what) \(MemoryBudget.describe(bytes)) decoded"
                         + (card.map { " up to card \(QuotedValue.quoted($0, mark: "'"))" } ?? "") + ", over the "
                         + "\(MemoryBudget.describe(textureBudget)) that --max-memory leaves beside --cache: "
                         + "raise --max-memory, lower --cache, or serve fewer or smaller cards")
    }

    /// The bytes of the cards' textures, an image shared by several cards (one file decoded once)
    /// counted once.
    static func distinctBytes(_ cards: [LoadedCard]) -> Int {
        var seen = Set<UnsafeRawPointer>(), total = 0
        for card in cards {
            let faces = [card.front.face, card.back.face]
            for image in faces.flatMap({ [$0.art, $0.mask] + ($0.foilMap.map { [$0] } ?? []) }) {
                let address: UnsafeRawPointer? = switch image {
                case .rgba8(let pixels): pixels.channels.withUnsafeBytes { $0.baseAddress }
                case .rgba16(let pixels): pixels.channels.withUnsafeBytes { $0.baseAddress }
                }
                if let address, !seen.insert(address).inserted { continue }
                total += image.byteCount
            }
        }
        return total
    }

    /// The card ids in `directory`: its sub-folders but hidden ones, each checked.
    static func cardFolders(in directory: String) throws(ServerSetupError) -> [String] {
        guard FileIO.isDirectory(directory) else { throw ServerSetupError("\(QuotedValue.shown(directory)): not a directory (--cards names a folder of card folders)") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ServerSetupError("\(QuotedValue.shown(directory)): cannot list it: \(error.localizedDescription)")
        }
        var ids: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") && FileIO.isDirectory(directory + "/" + name) {
            guard isServableID(name) else {
                throw ServerSetupError("\(QuotedValue.shown(directory + "/" + name)): a card's id is its folder's name, made of letters, digits, '-', '_' and '.' "
                                       + "so that a URL carries it as it is; rename the folder")
            }
            guard name != sampleID else { throw ServerSetupError("\(QuotedValue.shown(directory + "/" + name)): '\(sampleID)' is the built-in card's id; rename the folder") }
            ids.append(name)
        }
        return ids
    }

    /// Whether `id` is served as it is in a URL path: ASCII letters, digits, `-`, `_`, `.`, at most
    /// 128 of them, not starting with a dot.
    static func isServableID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && !id.hasPrefix(".")
            && id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    /// The files of the card folder `folder`, as a request's file parameters (the request's own
    /// defaults fill in the rest), each a regular file: a link to a device or a FIFO is refused
    /// before it is opened for reading.
    static func cardFiles(id: String, folder: String) throws(ServerSetupError) -> CardTextures {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let known = Set(fileNames.map(\.file))
        if let stray = names.sorted().first(where: { $0.lowercased().hasSuffix(".png") && !known.contains($0) }) {
            throw ServerSetupError("\(QuotedValue.shown(folder + "/" + stray)): not a card file; a card folder holds " + fileNames.map(\.file).joined(separator: ", "))
        }
        guard names.contains("art.png") else { throw ServerSetupError("\(QuotedValue.shown(folder)): no art.png (a card folder needs its front art)") }
        var request = RenderRequest()
        do {
            for (role, file) in fileNames where names.contains(file) {
                try FileIO.checkRegularFile(folder + "/" + file)
                try request.set(role, to: folder + "/" + file)
            }
        } catch let error as RequestError {
            throw ServerSetupError("card \(QuotedValue.quoted(id, mark: "'")): \(error.described { name in fileNames.first { $0.role == name }?.file ?? name })")
        } catch {
            throw ServerSetupError("card \(QuotedValue.quoted(id, mark: "'")): \(error)")
        }
        return request.card
    }

    static func loadCard(id: String, files textures: CardTextures, cache: TextureCache) throws(ServerSetupError) -> Card {
        do {
            let faces = try textures.load { path, role in try cache.texture(at: path, role: role).image }
            var summary = ""
            for (role, path) in textures.byRole { summary += "\(role) \(try cache.hash(of: path))\n" }
            return Card(id: id, faces: faces, contentHash: ContentHash.sha256(summary), files: textures.byRole)
        } catch let error as RequestError {
            throw ServerSetupError("card \(QuotedValue.quoted(id, mark: "'")): \(error.described { name in fileNames.first { $0.role == name }?.file ?? name })")
        } catch {
            throw ServerSetupError("card \(QuotedValue.quoted(id, mark: "'")): \(error)")
        }
    }
}
#endif

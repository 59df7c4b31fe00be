#if Server
import KiraServer
import KiraFiles
import KiraServerAPI
import Testing

/// The configuration checks itself: a program that embeds the server gets the refusals
/// `kira serve`'s options get.
@Suite struct ServerConfigurationTests {
    @Test(arguments: [("--max-wait", 61.0), ("--deadline", 0.0), ("--idle-timeout", 0.05), ("--grace-period", 3601.0)])
    func aTimeOutOfRangeIsRefused(option: String, seconds: Double) throws {
        let setting = try #require(ServerConfiguration.durationSettings.first { $0.option == option })
        var configuration = ServerFixtures.configuration()
        configuration[keyPath: setting.path] = .milliseconds(Int64(seconds * 1000))
        #expect(throws: ServerSetupError.self) { try configuration.validate() }
        #expect(throws: ServerSetupError.self) { _ = try buildApplication(configuration) }
        var set = ServerFixtures.configuration()
        #expect(throws: ServerSetupError.self) { try set.setDuration(option, seconds: seconds) }
        #expect(throws: ServerSetupError.self) { try set.setDuration(option, seconds: .infinity) }
        try set.setDuration(option, seconds: setting.example)
        try set.validate()
    }

    /// The memory budget's minimum holds for a configuration as for `--max-memory`.
    @Test func aMemoryBudgetUnderTheMinimumIsRefused() {
        var configuration = ServerFixtures.configuration()
        configuration.memory = MemoryBudget(bytes: 1 << 10)
        configuration.cacheBytes = 0
        let error = #expect(throws: ServerSetupError.self) { try configuration.validate() }
        #expect(error?.description == "--max-memory must be at least 16M, not 1 KiB")
    }

    @Test func theMessageGivesTheRange() {
        var configuration = ServerFixtures.configuration()
        configuration.maxWait = .seconds(61)
        let error = #expect(throws: ServerSetupError.self) { try configuration.validate() }
        #expect(error?.description == "--max-wait must be between 0 and 60, e.g. 0.5, not 61")
    }
}
#endif

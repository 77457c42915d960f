import Testing

@testable import AppStoreSimulator

@Suite struct FaultProfileTests {
    @Test func parsesItemsAndPrintsThemBack() throws {
        let profile = try FaultProfile.parse("latency=0.5,21005:0.3,21105r,http503:0.1,timeout:0.05,malformed,truncated:0.2")
        #expect(profile.latency == 0.5...0.5)
        #expect(profile.faults.map(\.fault) == [.status(21005, retryable: nil), .status(21105, retryable: true), .http(503), .timeout, .malformed, .truncated])
        #expect(profile.faults.map(\.probability) == [0.3, 1, 0.1, 0.05, 1, 0.2])
        #expect(try FaultProfile.parse(profile.description) == profile)
        #expect(try FaultProfile.parse("flaky,latency=1-2").latency == 1...2)
        #expect(try FaultProfile.parse("none") == .none)
        let counted = try FaultProfile.parse("http429*2")
        #expect(counted.faults.first?.remaining == 2 && counted.description == "http429*2")
    }

    @Test(arguments: ["bogus", "latency=-1", "latency=3-1", "21005:2", "http99", "20000", "21005r", "storm,nonsense", "http429*0", "latency=1-"])
    func refusesNonsenseNamingTheItem(_ spec: String) {
        #expect(throws: FaultSpecError.self) { try FaultProfile.parse(spec) }
    }

    @Test func seededDrawsRepeat() async {
        let a = FaultSwitch(FaultProfile(faults: [.init(.http(503), 0.5)]), seed: 7)
        let b = FaultSwitch(FaultProfile(faults: [.init(.http(503), 0.5)]), seed: 7)
        var first: [Bool] = [], second: [Bool] = []
        for _ in 0..<50 {
            first.append(await a.draw().fault != nil)
            second.append(await b.draw().fault != nil)
        }
        #expect(first == second)
        #expect(first.contains(true) && first.contains(false))
    }

    @Test func countedFaultsStopAfterTheirTimes() async {
        let faults = FaultSwitch(FaultProfile(faults: [.init(.timeout, times: 2)]))
        var fired: [Bool] = []
        for _ in 0..<4 { fired.append(await faults.draw().fault != nil) }
        #expect(fired == [true, true, false, false])
    }
}

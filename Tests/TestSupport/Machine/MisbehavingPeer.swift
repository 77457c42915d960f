import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A peer (Apple, a game server) that misbehaves at the socket level, on loopback: it
/// accepts and never answers, trickles its answer a byte a second, or sends a 2 GB body as
/// fast as the client reads. What it costs a caller must stay bounded in time and memory.
public final class MisbehavingPeer: Sendable {
    public enum Manner: String, Sendable, CaseIterable {
        case silent, trickle, hugeBody
    }

    public let url: String
    private let channel: any Channel
    private let sent: NIOLockedValueBox<Int64>

    /// Body bytes the client took so far: a client that stops reading at its cap keeps this
    /// near the cap (plus socket buffers), however large the body on offer. Counted here
    /// rather than as the test process's memory, which the tests running beside it share.
    public var bodyBytesTaken: Int64 { sent.withLockedValue { $0 } }

    public static func start(_ manner: Manner) async throws -> MisbehavingPeer {
        let sent = NIOLockedValueBox<Int64>(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { $0.pipeline.addHandler(Handler(manner: manner, sent: sent)) }
            .bind(host: "127.0.0.1", port: 0).get()
        return MisbehavingPeer(url: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)", channel: channel, sent: sent)
    }

    private init(url: String, channel: any Channel, sent: NIOLockedValueBox<Int64>) {
        self.url = url
        self.channel = channel
        self.sent = sent
    }

    public func stop() async {
        try? await channel.close()
    }

    /// Answers the first bytes of a request in its manner; reads and drops everything else.
    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let manner: Manner
        let sent: NIOLockedValueBox<Int64>
        var answering = false

        init(manner: Manner, sent: NIOLockedValueBox<Int64>) {
            self.manner = manner
            self.sent = sent
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answering else { return }
            answering = true
            switch manner {
            case .silent:
                break  // the request is read, and nothing ever comes back
            case .trickle:
                context.writeAndFlush(NIOAny(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")), promise: nil)
                let loop = context.eventLoop
                let channel = context.channel
                loop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { task in
                    guard channel.isActive else { return task.cancel() }
                    channel.writeAndFlush(ByteBuffer(string: "{"), promise: nil)
                }
            case .hugeBody:
                let size: Int64 = 2 << 30
                context.writeAndFlush(NIOAny(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n")), promise: nil)
                Self.stream(ByteBuffer(repeating: UInt8(ascii: "a"), count: 64 * 1024), left: size, on: context.channel, counting: sent)
            }
        }

        /// Writes `chunk` until `left` bytes went out or the client hung up, each write
        /// after the previous one was taken (so memory here stays one chunk).
        private static func stream(_ chunk: ByteBuffer, left: Int64, on channel: any Channel, counting sent: NIOLockedValueBox<Int64>) {
            guard left > 0, channel.isActive else { return }
            channel.writeAndFlush(chunk).whenComplete { result in
                guard case .success = result else { return }
                sent.withLockedValue { $0 += Int64(chunk.readableBytes) }
                stream(chunk, left: left - Int64(chunk.readableBytes), on: channel, counting: sent)
            }
        }
    }
}

/// Channel counts as types, so the generic inner loops of `ResampleJob` are specialised per pixel
/// format with the channel loop fully unrolled (a runtime count would keep it a loop).
protocol ChannelCount {
    static var value: Int { get }
    static var hasAlpha: Bool { get }
}

enum GrayChannels: ChannelCount {
    static var value: Int { 1 }
    static var hasAlpha: Bool { false }
}

enum GrayAlphaChannels: ChannelCount {
    static var value: Int { 2 }
    static var hasAlpha: Bool { true }
}

enum RGBChannels: ChannelCount {
    static var value: Int { 3 }
    static var hasAlpha: Bool { false }
}

enum RGBAChannels: ChannelCount {
    static var value: Int { 4 }
    static var hasAlpha: Bool { true }
}

/// Word lists for the generated names, descriptions, usernames and comments.
///
/// Plain ASCII plus a few accented words and an emoji, so clients meet the UTF-8 that real
/// titles carry without any of it being random.
enum DemoText {
    static let adjectives = [
        "Golden", "Quiet", "Misty", "Electric", "Frozen", "Silent", "Amber", "Hidden", "Lonely", "Wild",
        "Crimson", "Velvet", "Distant", "Northern", "Early", "Late", "Broken", "Endless", "Soft", "Bright",
        "Hazy", "Stormy", "Calm", "Ancient", "Urban", "Drifting", "Burning", "Pale", "Deep", "Blue",
    ]
    static let subjects = [
        "Hour", "Morning", "Harbour", "Ridge", "Forest", "Valley", "Lighthouse", "Street", "Bridge", "Dunes",
        "Glacier", "Canyon", "Meadow", "Skyline", "Reflection", "Portrait", "Fjord", "Alley", "Pier", "Summit",
        "Waterfall", "Orchard", "Market", "Station", "Coastline", "Storm", "Horizon", "Garden", "Rooftops", "Trail",
    ]
    static let places = [
        "Lofoten", "Kyoto", "Patagonia", "the Dolomites", "Reykjavík", "Lisbon", "the Highlands", "Banff",
        "Hallstatt", "Santorini", "Yosemite", "Cappadocia", "Tromsø", "Porto", "Hokkaido", "the Atacama",
        "Zermatt", "Havana", "Marrakech", "Big Sur",
    ]
    static let descriptionOpeners = [
        "Shot handheld just after sunrise", "Waited two hours for this light", "A long exposure from the tripod",
        "First frame of the day", "Caught this on the way home", "Stitched from three frames",
        "The fog lifted for about a minute", "Edited lightly, mostly white balance", "Taken from the ferry",
        "One of those evenings where everything lines up",
    ]
    static let descriptionClosers = [
        "Thanks for looking!", "Comments welcome.", "More from this trip soon.", "Prints available.",
        "Best viewed large.", "Another one from the archive.", "☀️", "",
    ]
    static let userFirst = [
        "lens", "pixel", "north", "shutter", "frame", "light", "wander", "photo", "aperture", "grain",
        "salt", "echo", "nomad", "field", "tide",
    ]
    static let userSecond = [
        "chaser", "walker", "hunter", "maker", "works", "craft", "eye", "lab", "story", "notes",
    ]
    static let commentBodies = [
        "Stunning light!", "Great composition.", "Love the colours here.", "Wow, this is beautiful.",
        "How long was the exposure?", "Fantastic shot, congrats on Popular!", "The depth here is amazing.",
        "Superb mood.", "Beautiful work as always.", "Which lens did you use?", "Magnifique ! 👏",
        "This deserves to be printed big.", "So peaceful.", "Nice leading lines.", "Excellent timing.",
    ]
}

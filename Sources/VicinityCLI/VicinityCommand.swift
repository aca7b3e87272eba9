public enum VicinityCommand { public static func main() {} }

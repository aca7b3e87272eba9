import VicinityCLI

CLI.main()

import VicinityBench

BenchTool.main()

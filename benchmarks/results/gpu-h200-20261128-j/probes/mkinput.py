# Writes the prototype's inputs for one model and (G, B) into a folder: mkinput.py DIR M G B [res]
import sys
from pathlib import Path
sys.path.insert(0, "benchmarks"); sys.path.insert(0, str(Path(__file__).parent))
from bench_hmm_filters import model, random_database
import drive
d, M, G, B = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
res, off = random_database(float(sys.argv[5]) if len(sys.argv) > 5 else 10e6, 350, 2)
Path(d).mkdir(parents=True, exist_ok=True)
drive.write_inputs(d, model(M, M), res, off, G, B)

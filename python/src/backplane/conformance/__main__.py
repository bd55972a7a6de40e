"""python3 -m backplane.conformance [FLAGS...]: backplane-conformance's command line."""

import sys

from backplane import conformance

if __name__ == "__main__":
    sys.exit(conformance.run(sys.argv[1:]))

// The two PROJ headers Vicinity uses: proj.h (transformations between CRSs) and
// geodesic.h (Karney's geodesic algorithms, compiled into libproj).
// Debian 12 installs both at the top of the system include directory (libproj-dev 9.1.1).
#include <proj.h>
#include <geodesic.h>

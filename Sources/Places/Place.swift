import Geo

import OMDbKit

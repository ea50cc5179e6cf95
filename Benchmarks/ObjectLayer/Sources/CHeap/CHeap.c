#include "CHeap.h"

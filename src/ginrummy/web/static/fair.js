// The page on fair deals: only the site header.
"use strict";
GR.header("Rules");

// The login page: the part of the dashboard asked for (a bookmark's #reports) is kept
// through the PIN, as a redirect keeps the #part of the address it came from.
"use strict";

document.querySelector("form.login-form").action = "/login" + location.hash;

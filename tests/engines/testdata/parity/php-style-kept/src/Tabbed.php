<?php

function tabbed($a) {
	return $a;
}

<?php
function loose( $a ){ return $a; }

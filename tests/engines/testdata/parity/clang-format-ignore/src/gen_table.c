static const int table[] = {1,2,3,
    4,5,6};
